package pose

import (
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// refFace pairs one of Human's faces (mesh with iris on) with our mesh of
// the same face before and after eyelid refinement.
type refFace struct {
	name         string
	raw, refined facemesh.Mesh
	want         [][3]float64
	yaw          float64 // Human's, degrees
}

func refFaces(t *testing.T) []refFace {
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
	lids := NewEyelids(load(IrisModelFile))
	var ref reftest.Human
	reftest.Load(t, "human.json", &ref)
	names := reftest.SortedKeys(ref.Results)
	var out []refFace
	for _, name := range names {
		img := reftest.FaceImage(t, reftest.HumanImages[name])
		faces, err := det.Detect(img)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ref.Results[name].Mesh {
			found := false
			for _, f := range faces {
				m, err := mesher.Run(img, f)
				if err != nil {
					t.Fatal(err)
				}
				// Pair by the mesh-centred box's clamped corner.
				if math.Hypot(math.Max(0, m.Min.X)-w.Box[0], math.Max(0, m.Min.Y)-w.Box[1]) > 3 {
					continue
				}
				r := m
				if err := lids.Refine(img, &r); err != nil {
					t.Fatal(err)
				}
				out = append(out, refFace{name: name, raw: m, refined: r, want: w.Mesh, yaw: w.Angle[0] * 180 / math.Pi})
				found = true
				break
			}
			if !found {
				t.Fatalf("%s: no face of ours pairs with reference box %v", name, w.Box)
			}
		}
	}
	return out
}

// TestEyelidParityWithHuman compares the refined left-eye lids with
// Human's mesh (iris on). Human replaces the left eye's contour only when
// the head is near frontal or turned so that eye faces the camera (its
// depth gate: z[263] − z[33] < 30 in model units), so other faces are
// skipped. The right eye is not compared: Human 3.3.6 mirrors the right
// eye's crop too but does not mirror its points back (while developing we
// checked that doing the same reproduces Human's right eye within 1 px on
// the faces where Human replaces it); we feed the model the right eye
// unmirrored, as it was trained.
func TestEyelidParityWithHuman(t *testing.T) {
	faces := refFaces(t)
	compared, worst := 0, 0.0
	for i, f := range faces {
		if f.raw.Points[263][2]-f.raw.Points[33][2] >= 30 {
			continue
		}
		compared++
		for _, k := range append(leftLower[:], leftUpper[:]...) {
			// Human truncates its coordinates to whole pixels.
			d := math.Max(math.Abs(math.Trunc(f.refined.Points[k][0])-f.want[k][0]),
				math.Abs(math.Trunc(f.refined.Points[k][1])-f.want[k][1]))
			worst = math.Max(worst, d)
			if d > 1 {
				t.Errorf("%s face %d point %d: (%.2f, %.2f), Human (%v, %v)", f.name, i, k,
					f.refined.Points[k][0], f.refined.Points[k][1], f.want[k][0], f.want[k][1])
			}
		}
	}
	if compared < 10 {
		t.Fatalf("only %d of %d faces compared", compared, len(faces))
	}
	t.Logf("%d faces × 16 left-eye lid points: worst |Δ| %.0f px", compared, worst)
}

// TestYawConventionAgainstHuman: our yaw has the opposite sign to Human's
// (ours is positive for the subject's own left) and reads larger, since we
// rescale depth to pixels and Human does not; on these faces the ratio is
// 1.3–1.6.
func TestYawConventionAgainstHuman(t *testing.T) {
	for _, f := range refFaces(t) {
		if math.Abs(f.yaw) < 5 {
			continue
		}
		got := Estimate(&f.refined).Yaw
		if ratio := -got / f.yaw; ratio < 1.2 || ratio > 1.8 {
			t.Errorf("%s: yaw %.1f°, Human %.1f° (ratio %.2f)", f.name, got, f.yaw, ratio)
		}
	}
}
