package spoof

import (
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// TestParityWithHuman compares antispoof ("real") and liveness ("live")
// with Human's for every face; Human rounds both to 0.01. Liveness must
// agree to that rounding. Antispoof gets 0.025: it is sensitive to the
// exact crop, and a face box that rounds one pixel differently (the
// squared box is rounded to whole pixels; JPEG decoders also differ in the
// last bit) moves it by up to 0.02 — measured on bbt4.jpg with identical
// pixels on both sides.
func TestParityWithHuman(t *testing.T) {
	set := modelstest.Set(t)
	load := func(name string) *tfjs.Model {
		m, err := tfjs.Load(set.ReadFile, name)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	det := blazeface.New(load(blazeface.ModelFile), blazeface.Defaults)
	mesher := facemesh.New(load(facemesh.ModelFile))
	anti, live := NewAntispoof(load(AntispoofFile)), NewLiveness(load(LivenessFile))
	var ref reftest.Human
	reftest.Load(t, "human.json", &ref)
	names := reftest.SortedKeys(ref.Results)
	worst, n := map[string]float64{}, 0
	for _, name := range names {
		want := ref.Results[name]
		img := reftest.FaceImage(t, reftest.HumanImages[name])
		faces, err := det.Detect(img)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want.Mesh {
			// Pair with our face whose mesh box starts nearest the reference box.
			best := math.Inf(1)
			var real, liv float32
			for _, f := range faces {
				m, err := mesher.Run(img, f)
				if err != nil {
					t.Fatal(err)
				}
				d := math.Hypot(math.Max(0, m.Min.X)-w.Box[0], math.Max(0, m.Min.Y)-w.Box[1])
				if d >= best {
					continue
				}
				best = d
				if real, err = anti.Score(mesher.Crop()); err != nil {
					t.Fatal(err)
				}
				if liv, err = live.Score(mesher.Crop()); err != nil {
					t.Fatal(err)
				}
			}
			n++
			for _, c := range []struct {
				what      string
				got, want float64
				tol       float64
			}{{"antispoof", float64(real), w.Real, 0.025}, {"liveness", float64(liv), w.Live, 0.0051}} {
				d := math.Abs(c.got - c.want)
				worst[c.what] = math.Max(worst[c.what], d)
				if d > c.tol {
					t.Errorf("%s face %d %s: %.4f, reference %.2f", name, i, c.what, c.got, c.want)
				}
			}
		}
	}
	t.Logf("%d faces: worst difference antispoof %.4f, liveness %.4f (reference rounded to 0.01)", n, worst["antispoof"], worst["liveness"])
}
