package match

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/facerec"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/imgio"
)

// degrade makes a license-like copy: grey, downscaled to 100 px, a mild
// 3×3 box blur, JPEG quality 40.
func degrade(t *testing.T, data []byte) []byte {
	t.Helper()
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	small := image.NewGray(image.Rect(0, 0, 100, 100))
	draw.BiLinear.Scale(small, small.Bounds(), src, src.Bounds(), draw.Src, nil)
	blur := image.NewGray(small.Bounds())
	for y := range 100 {
		for x := range 100 {
			sum, n := 0, 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if xx, yy := x+dx, y+dy; xx >= 0 && xx < 100 && yy >= 0 && yy < 100 {
						sum += int(small.GrayAt(xx, yy).Y)
						n++
					}
				}
			}
			blur.Pix[y*blur.Stride+x] = uint8((sum + n/2) / n)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, blur, &jpeg.Options{Quality: 40}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type face struct {
	who            string
	clean, license []float32
}

// TestCalibration scores every pair of labeled faces, clean against clean
// and license-like against clean, and requires each to land in the right
// tier family: a same-person pair never no_match, a different-person pair
// never likely or definite. It logs the rates behind the thresholds.
func TestCalibration(t *testing.T) {
	net, err := facerec.Load(modelstest.Set(t).ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	e := net.NewEmbedder()
	files, err := filepath.Glob(testkit.Data(t, "testdata", "faces", "labeled", "*", "*.png"))
	if err != nil || len(files) < 10 {
		t.Fatalf("labeled faces: %d files, %v", len(files), err)
	}
	sort.Strings(files)
	desc := func(data []byte) []float32 {
		img, err := imgio.Decode(data, imgio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.Descriptor(img)
		if err != nil {
			t.Fatal(err)
		}
		return d[:]
	}
	var faces []face
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		faces = append(faces, face{who: filepath.Base(filepath.Dir(f)), clean: desc(data), license: desc(degrade(t, data))})
	}
	type key struct {
		same    bool
		license bool
	}
	counts := map[key]map[Tier]int{}
	lo, hi := map[key]float64{}, map[key]float64{}
	for i := range faces {
		for j := range faces {
			if i == j {
				continue
			}
			for _, license := range []bool{false, true} {
				if !license && j < i {
					continue // clean pairs are symmetric: count once
				}
				a := faces[i].clean
				if license {
					a = faces[i].license
				}
				r, err := Default.Compare(a, faces[j].clean)
				if err != nil {
					t.Fatal(err)
				}
				k := key{faces[i].who == faces[j].who, license}
				if counts[k] == nil {
					counts[k] = map[Tier]int{}
				}
				counts[k][r.Tier]++
				if v, ok := lo[k]; !ok || r.Distance < v {
					lo[k] = r.Distance
				}
				hi[k] = max(hi[k], r.Distance)
				if k.same && r.Tier == NoMatch {
					t.Errorf("%s vs %s (license-like %v): same person scored no_match (distance %.3f)", filepath.Base(files[i]), filepath.Base(files[j]), license, r.Distance)
				}
				if !k.same && (r.Tier == DefiniteMatch || r.Tier == LikelyMatch) {
					t.Errorf("%s vs %s (license-like %v): different people scored %s (distance %.3f)", filepath.Base(files[i]), filepath.Base(files[j]), license, r.Tier, r.Distance)
				}
			}
		}
	}
	for _, k := range []key{{true, false}, {false, false}, {true, true}, {false, true}} {
		c := counts[k]
		n := c[DefiniteMatch] + c[LikelyMatch] + c[PossibleMatch] + c[NoMatch]
		t.Log(fmt.Sprintf("same=%v license-like=%v: %d pairs, distance %.3f…%.3f: definite %d, likely %d, possible %d, no_match %d",
			k.same, k.license, n, lo[k], hi[k], c[DefiniteMatch], c[LikelyMatch], c[PossibleMatch], c[NoMatch]))
	}
}
