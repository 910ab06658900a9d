package face_test

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/tensor"
)

func TestRegionDuplicate(t *testing.T) {
	main := face.Region{Box: [4]float64{100, 100, 300, 300}, Size: 200, Score: 0.9}
	for _, tc := range []struct {
		name string
		box  [4]float64
		want bool
	}{
		// A quarter-side box over the eye: IoU 0.06, wholly inside.
		{"small box inside", [4]float64{150, 150, 200, 200}, true},
		{"half inside", [4]float64{250, 150, 350, 250}, true},
		{"a third inside", [4]float64{270, 150, 370, 250}, false},
		{"beside", [4]float64{320, 100, 520, 300}, false},
		{"enclosing", [4]float64{50, 50, 350, 350}, true},
	} {
		r := face.Region{Box: tc.box, Size: tc.box[2] - tc.box[0], Score: 0.3}
		if got := r.Duplicate([]face.Region{main}); got != tc.want {
			t.Errorf("%s: duplicate %v, want %v", tc.name, got, tc.want)
		}
	}
	if (face.Region{Box: [4]float64{1, 1, 1, 1}}).Duplicate([]face.Region{main}) {
		t.Error("an empty box is nobody's duplicate")
	}
}

func TestSubject(t *testing.T) {
	r := func(size float64, score float32) face.Region { return face.Region{Size: size, Score: score} }
	for _, tc := range []struct {
		name    string
		regions []face.Region
		subject int
		others  int
	}{
		{"none", nil, -1, 0},
		{"one", []face.Region{r(100, 0.8)}, 0, 0},
		// bbt5: the largest face scores 0.64, a real one 0.38 (0.59 of the strongest).
		{"group", []face.Region{r(141, 0.64), r(117, 0.38), r(102, 0.70)}, 0, 2},
		{"weak stray beside", []face.Region{r(60, 0.66), r(36, 0.24)}, 0, 0},
		{"weak stray larger than the face", []face.Region{r(90, 0.2), r(100, 0.9)}, 1, 0},
		{"ghost", []face.Region{r(100, 0.9), r(55, 0.8)}, 0, 0},
		{"second person near", []face.Region{r(100, 0.9), r(75, 0.8)}, 0, 1},
	} {
		s, o := face.Subject(tc.regions)
		if s != tc.subject || len(o) != tc.others {
			t.Errorf("%s: subject %d, %d others; want %d, %d", tc.name, s, len(o), tc.subject, tc.others)
		}
	}
}

// Every real face of the group photos is still found and each remains
// more than one face of similar size for Single.
func TestGroupPhotosStillMultiple(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	for name, want := range map[string]int{"bbt1.jpg": 4, "bbt2.jpg": 3, "bbt3.jpg": 5, "bbt4.jpg": 6, "bbt5.jpg": 5} {
		img := sharedImage(t, a, "groups/"+name)
		faces, err := a.Analyze(img)
		if err != nil || len(faces) != want {
			t.Errorf("%s: %d faces (%v), want %d", name, len(faces), err, want)
		}
		if _, err := a.Single(img); !errors.Is(err, face.ErrMultipleFaces) {
			t.Errorf("%s: Single %v, want ErrMultipleFaces", name, err)
		}
	}
}

// Stray boxes found on real faces scaled on a plain canvas (see the
// measurements in select.go): one lies inside the face and is dropped as
// a duplicate; one lies at the crop's edge, at 0.6 of the face's size but
// a third of its score, and is found but not counted.
func TestStrayBoxes(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	inside := scaled(t, a, "labeled/amy/amy1.png", 2, 1.6)
	if faces, err := a.Analyze(inside); err != nil || len(faces) != 1 {
		t.Errorf("amy1 ×2 on a 1.6× canvas: %d faces (%v), want the stray inside dropped", len(faces), err)
	}
	edge := scaled(t, a, "labeled/bernadette/bernadette2.png", 0.6, 1)
	faces, err := a.Analyze(edge)
	if err != nil || len(faces) != 2 {
		t.Fatalf("bernadette2 ×0.6: %d faces (%v), want the face and the stray", len(faces), err)
	}
	f, err := a.Single(edge)
	if err != nil || f.Box != faces[0].Box {
		t.Errorf("bernadette2 ×0.6: Single %v (box %v), want the face at %v", err, f.Box, faces[0].Box)
	}
}

// scaled draws a shared face image scaled by scale, centred on a grey
// canvas canvas times its size, JPEG quality 85.
func scaled(t *testing.T, a *face.Analyzer, rel string, scale, canvas float64) *tensor.Tensor {
	t.Helper()
	data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := src.Bounds()
	w, h := int(float64(b.Dx())*scale), int(float64(b.Dy())*scale)
	cw, ch := int(float64(w)*canvas), int(float64(h)*canvas)
	dst := image.NewRGBA(image.Rect(0, 0, cw, ch))
	for i := range dst.Pix {
		dst.Pix[i] = 180
	}
	ox, oy := (cw-w)/2, (ch-h)/2
	draw.BiLinear.Scale(dst, image.Rect(ox, oy, ox+w, oy+h), src, b, draw.Src, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	img, err := a.Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// A copy of the subject's own face past DominantRatio (amy1 with a copy
// at 0.63 of the side) is not a second person; another person's face at
// that size is.
func TestSingleSameFaceCopy(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	copied := composite(t, a, []placed{{"labeled/amy/amy1.png", 10, 30, 150}, {"labeled/amy/amy1.png", 200, 40, 95}})
	faces, err := a.Analyze(copied)
	if err != nil || len(faces) != 2 || faces[1].Size < face.DominantRatio*faces[0].Size {
		for _, f := range faces {
			t.Logf("size %.0f", f.Size)
		}
		t.Fatalf("amy1 and its copy: %d faces (%v), want two, the copy past DominantRatio", len(faces), err)
	}
	if f, err := a.Single(copied); err != nil || f.Box[0] > 100 {
		t.Errorf("amy1 and its copy: %v (box %v), want the large face", err, f.Box)
	}
	other := composite(t, a, []placed{{"labeled/amy/amy1.png", 10, 30, 150}, {"labeled/penny/penny2.png", 200, 40, 95}})
	if _, err := a.Single(other); !errors.Is(err, face.ErrMultipleFaces) {
		t.Errorf("amy1 and penny2 at 0.63 of the side: %v, want ErrMultipleFaces", err)
	}
}
