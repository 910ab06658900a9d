package face_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tensor"
)

func engine(t *testing.T, opt face.Options) *face.Engine {
	t.Helper()
	set := modelstest.Set(t) // skips or fails loudly without models
	e, err := face.Load(set.Dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestLoadNamesMakeModels(t *testing.T) {
	_, err := face.Load(t.TempDir(), face.DefaultOptions)
	if !errors.Is(err, models.ErrMissing) || !strings.Contains(err.Error(), "make models") {
		t.Fatalf("Load from an empty dir: %v, want ErrMissing naming make models", err)
	}
}

func sharedImage(t *testing.T, a *face.Analyzer, rel string) *tensor.Tensor {
	t.Helper()
	data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	img, err := a.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestSingleFaceErrors(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	flat := tensor.New(1, 200, 200, 3)
	for i := range flat.Data {
		flat.Data[i] = 90
	}
	if _, err := a.Single(flat); !errors.Is(err, face.ErrNoFace) {
		t.Errorf("flat image: %v, want face.ErrNoFace", err)
	}
	if _, err := a.Single(sharedImage(t, a, "groups/bbt4.jpg")); !errors.Is(err, face.ErrMultipleFaces) {
		t.Errorf("group photo: %v, want face.ErrMultipleFaces", err)
	}
	// A portrait with a small ghost copy beside it, as on many licenses:
	// the dominant face is taken.
	withGhost := composite(t, a, []placed{{"labeled/raj/raj1.png", 20, 30, 150}, {"labeled/raj/raj1.png", 200, 40, 60}})
	all, err := a.Analyze(withGhost)
	if err != nil || len(all) != 2 {
		t.Fatalf("portrait with ghost image: %d faces (%v), want both found", len(all), err)
	}
	f, err := a.Single(withGhost)
	if err != nil {
		t.Fatalf("portrait with ghost image: %v", err)
	}
	if f.Box[0] > 100 {
		t.Errorf("portrait with ghost image: took the face at %v, want the large one", f.Box)
	}
	// Two faces of similar size are ambiguous.
	two := composite(t, a, []placed{{"labeled/raj/raj1.png", 10, 30, 140}, {"labeled/amy/amy1.png", 170, 30, 130}})
	if _, err := a.Single(two); !errors.Is(err, face.ErrMultipleFaces) {
		t.Errorf("two similar faces: %v, want ErrMultipleFaces", err)
	}
	strict := face.DefaultOptions
	strict.MinFaceSize = 400
	b := engine(t, strict).NewAnalyzer()
	if _, err := b.Single(sharedImage(t, b, "labeled/raj/raj1.png")); !errors.Is(err, face.ErrFaceTooSmall) {
		t.Errorf("150 px crop with a 400 px minimum: %v, want face.ErrFaceTooSmall", err)
	}
	f, err = a.Single(sharedImage(t, a, "labeled/raj/raj1.png"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Size < 60 || f.Size > 160 || f.MeshScore < 0.9 || f.Box[2] == 0 {
		t.Errorf("raj1: implausible face %+v", f)
	}
}

type placed struct {
	rel        string
	x, y, side int
}

// composite pastes shared face crops, scaled to side×side, onto a light
// 320×220 canvas.
func composite(t *testing.T, a *face.Analyzer, faces []placed) *tensor.Tensor {
	t.Helper()
	canvas := image.NewGray(image.Rect(0, 0, 320, 220))
	for i := range canvas.Pix {
		canvas.Pix[i] = 210
	}
	for _, p := range faces {
		data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", filepath.FromSlash(p.rel)))
		if err != nil {
			t.Fatal(err)
		}
		src, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		draw.BiLinear.Scale(canvas, image.Rect(p.x, p.y, p.x+p.side, p.y+p.side), src, src.Bounds(), draw.Src, nil)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, canvas); err != nil {
		t.Fatal(err)
	}
	img, err := a.Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// licenseLike degrades a face crop like a printed license portrait: grey,
// face scaled to 100 px on a light card-coloured 180×220 background (a
// license portrait has margins; a detector also needs some), a mild 3×3
// blur, JPEG quality 40.
func licenseLike(t *testing.T, data []byte) []byte {
	t.Helper()
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 180, 220
	card := image.NewGray(image.Rect(0, 0, w, h))
	for i := range card.Pix {
		card.Pix[i] = 215
	}
	draw.BiLinear.Scale(card, image.Rect(40, 50, 140, 150), src, src.Bounds(), draw.Src, nil)
	blur := image.NewGray(card.Bounds())
	for y := range h {
		for x := range w {
			sum, n := 0, 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if xx, yy := x+dx, y+dy; xx >= 0 && xx < w && yy >= 0 && yy < h {
						sum += int(card.GrayAt(xx, yy).Y)
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

// TestPipelineCalibration runs every labeled face through the whole
// pipeline (detect, mesh, aligned crop, descriptor), clean and
// license-like, and requires every pair to land in its tier family:
// same person never no_match, different people never likely or definite.
func TestPipelineCalibration(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	files, err := filepath.Glob(testkit.Data(t, "testdata", "faces", "labeled", "*", "*.png"))
	if err != nil || len(files) < 10 {
		t.Fatalf("labeled faces: %d, %v", len(files), err)
	}
	sort.Strings(files)
	type entry struct {
		who, name      string
		clean, license *face.Face
	}
	var faces []entry
	var missed []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e := entry{who: filepath.Base(filepath.Dir(f)), name: filepath.Base(f)}
		for _, v := range []struct {
			dst  **face.Face
			data []byte
			tag  string
		}{{&e.clean, data, ""}, {&e.license, licenseLike(t, data), " (license-like)"}} {
			img, err := a.Decode(v.data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := a.Single(img)
			if err != nil {
				missed = append(missed, e.name+v.tag+": "+err.Error())
				continue
			}
			*v.dst = &got
		}
		faces = append(faces, e)
	}
	for _, m := range missed {
		t.Errorf("no usable face: %s", m)
	}
	type key struct{ same, license bool }
	counts := map[key]map[match.Tier]int{}
	lo, hi := map[key]float64{}, map[key]float64{}
	for i := range faces {
		for j := range faces {
			if i == j || faces[j].clean == nil {
				continue
			}
			for _, license := range []bool{false, true} {
				a := faces[i].clean
				if license {
					a = faces[i].license
				} else if j < i {
					continue
				}
				if a == nil {
					continue
				}
				r, err := face.DefaultOptions.Thresholds.Compare(a.Descriptor[:], faces[j].clean.Descriptor[:])
				if err != nil {
					t.Fatal(err)
				}
				k := key{faces[i].who == faces[j].who, license}
				if counts[k] == nil {
					counts[k], lo[k] = map[match.Tier]int{}, r.Distance
				}
				counts[k][r.Tier]++
				lo[k], hi[k] = min(lo[k], r.Distance), max(hi[k], r.Distance)
				if k.same && r.Tier == match.NoMatch {
					t.Errorf("%s vs %s (license-like %v): same person scored no_match (%.3f)", faces[i].name, faces[j].name, license, r.Distance)
				}
				if !k.same && (r.Tier == match.DefiniteMatch || r.Tier == match.LikelyMatch) {
					t.Errorf("%s vs %s (license-like %v): different people scored %s (%.3f)", faces[i].name, faces[j].name, license, r.Tier, r.Distance)
				}
			}
		}
	}
	t.Logf("missed: %v", missed)
	for _, k := range []key{{true, false}, {false, false}, {true, true}, {false, true}} {
		c := counts[k]
		t.Log(fmt.Sprintf("same=%v license-like=%v: distance %.3f…%.3f: definite %d, likely %d, possible %d, no_match %d",
			k.same, k.license, lo[k], hi[k], c[match.DefiniteMatch], c[match.LikelyMatch], c[match.PossibleMatch], c[match.NoMatch]))
	}
}
