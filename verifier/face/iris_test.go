package face_test

import (
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/pose"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// irisRef is iris.json (tools/reference `iris` mode): per image, per face,
// both eye crops' boxes and Human's iris model outputs on them.
type irisRef struct {
	Results map[string][][]struct {
		Box     [4]float64 `json:"box"` // y0, x0, y1, x1 normalised
		Flip    bool       `json:"flip"`
		Outputs []struct {
			Shape []int     `json:"shape"`
			Data  []float64 `json:"data"`
		} `json:"outputs"`
	} `json:"results"`
}

// irisImages maps iris.json's image names to testdata/faces.
var irisImages = map[string]string{
	"bbt4.jpg": "groups/bbt4.jpg", "bbt2.jpg": "groups/bbt2.jpg", "neutral.jpg": "groups/neutral.jpg",
	"face1.png": "reference/face1.png", "raj1.png": "labeled/raj/raj1.png", "penny2.png": "labeled/penny/penny2.png",
}

// TestIrisModelParity runs the iris model (verifier/face/pose's eyelid
// refiner) on the very eye crops Human's harness cut — 64×64 around each
// eye's corners, image-right eye mirrored — and compares all 76 points
// (71 eye-contour incl. the lids, 5 iris) with tfjs-wasm's. On PNG images,
// where both sides decode identical pixels, within 0.05 crop pixels (the
// reference is rounded to 0.01; measured 0.005). JPEGs decode slightly
// differently (Go's image/jpeg vs jpeg-js: mean 0.5, at most 4 levels on
// bbt2.jpg), which the model, looking at a few dozen image pixels blown
// up to 64, turns into up to 0.52 crop pixels; mapped back to the image
// that is at most 0.30 px, and 0.5 px is asserted there (the issue's
// landmark bound is 1 px). Pose's crop placement and
// the mapping back are checked against Human's full pipeline in
// pose.TestEyelidParityWithHuman.
func TestIrisModelParity(t *testing.T) {
	set := modelstest.Set(t)
	m, err := tfjs.Load(set.ReadFile, pose.IrisModelFile)
	if err != nil {
		t.Fatal(err)
	}
	sess := m.NewSession()
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	var ref irisRef
	reftest.Load(t, "iris.json", &ref)
	names := make([]string, 0, len(ref.Results))
	for n := range ref.Results {
		names = append(names, n)
	}
	sort.Strings(names)
	var crop tensor.Tensor
	eyes, worstPNG, worstImage := 0, 0.0, 0.0
	for _, name := range names {
		img := sharedImage(t, a, irisImages[name])
		for fi, f := range ref.Results[name] {
			for _, e := range f {
				if len(e.Outputs) != 1 || len(e.Outputs[0].Data) != 3*76 {
					t.Fatalf("%s face %d: reference outputs %d", name, fi, len(e.Outputs))
				}
				b := e.Box
				if err := tensor.CropAndResize(&crop, img, b[0], b[1], b[2], b[3], 64, 64, 0); err != nil {
					t.Fatal(err)
				}
				for i := range crop.Data {
					crop.Data[i] /= 255
				}
				if e.Flip {
					mirror(&crop)
				}
				if err := sess.Run(&crop); err != nil {
					t.Fatal(err)
				}
				out := irisOutput(t, sess)
				// x, y are in crop pixels; z shares their scale.
				d := 0.0
				for i, w := range e.Outputs[0].Data {
					d = math.Max(d, math.Abs(float64(out[i])-w))
				}
				px := d * (b[3] - b[1]) * float64(img.Shape[2]) / 64 // image pixels
				eyes++
				if strings.HasSuffix(name, ".png") {
					worstPNG = math.Max(worstPNG, d)
					if d > 0.05 {
						t.Errorf("%s face %d eye (flip %v): max |Δ| %.3f crop px from Human's iris model", name, fi, e.Flip, d)
					}
				}
				worstImage = math.Max(worstImage, px)
				if px > 0.5 {
					t.Errorf("%s face %d eye (flip %v): max |Δ| %.3f image px (%.3f crop px) from Human's iris model", name, fi, e.Flip, px, d)
				}
			}
		}
	}
	if eyes < 20 {
		t.Fatalf("only %d eyes compared", eyes)
	}
	t.Logf("%d eyes × 76 points: worst |Δ| %.3f crop px on PNGs, %.3f image px on all", eyes, worstPNG, worstImage)
}

// irisOutput is the model's 228-value output (its name varies by export).
func irisOutput(t *testing.T, s *tfjs.Session) []float32 {
	t.Helper()
	for _, name := range []string{"Identity", "Identity_1"} {
		if o, err := s.Output(name); err == nil && len(o.Data) == 3*76 {
			return o.Data
		}
	}
	t.Fatal("iris model has no 228-value output")
	return nil
}

// mirror flips a [1, h, w, c] tensor left to right, as
// tf.image.flipLeftRight.
func mirror(x *tensor.Tensor) {
	w, c := x.Shape[2], x.Shape[3]
	for y := range x.Shape[1] {
		row := x.Data[y*w*c : (y+1)*w*c]
		for i, j := 0, w-1; i < j; i, j = i+1, j-1 {
			for k := range c {
				row[i*c+k], row[j*c+k] = row[j*c+k], row[i*c+k]
			}
		}
	}
}
