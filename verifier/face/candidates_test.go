package face_test

import (
	"os"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/facerec"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

// TestCandidateEmbeddings runs bench/match's candidate embeddings on
// labeled faces through the engine's mesh and their own crops: each gives
// its documented length, and faceres (the one that tells people apart)
// scores two photos of one person above two people.
func TestCandidateEmbeddings(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer() // skips or fails loudly without models
	set := modelstest.WithCandidates(t)
	var imgs []*tensor.Tensor
	var meshes []face.Face
	for _, f := range [][2]string{{"amy", "amy1.png"}, {"amy", "amy2.png"}, {"raj", "raj1.png"}} {
		data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", "labeled", f[0], f[1]))
		if err != nil {
			t.Fatal(err)
		}
		img, err := imgio.Decode(data, imgio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		fc, err := a.Single(img)
		if err != nil {
			t.Fatalf("%s: %v", f[1], err)
		}
		imgs, meshes = append(imgs, img), append(meshes, fc)
	}
	for _, c := range []struct {
		spec facerec.Spec
		dim  int
	}{{facerec.MobileFaceNet, 192}, {facerec.FaceRes, 1024}, {facerec.FaceResDeep, 1024}} {
		g, err := facerec.LoadGraph(set.ReadFile, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		e := g.NewEmbedder()
		var d [][]float32
		for i, img := range imgs {
			var crop tensor.Tensor
			if err := face.AlignedCrop(&crop, img, meshes[i].Mesh, c.spec.Align, c.spec.Size); err != nil {
				t.Fatal(err)
			}
			v, err := e.Embed(&crop)
			if err != nil {
				t.Fatal(err)
			}
			if len(v) != c.dim {
				t.Fatalf("%s: %d values, want %d", c.spec.Name, len(v), c.dim)
			}
			d = append(d, v)
		}
		if _, err := e.Embed(tensor.New(1, 50, 50, 3)); err == nil {
			t.Errorf("%s: Embed accepted a 50 px crop", c.spec.Name)
		}
		same, diff := cosine(t, d[0], d[1]), cosine(t, d[0], d[2])
		t.Logf("%s: amy1–amy2 %.3f, amy1–raj1 %.3f", c.spec.Name, same, diff)
		if c.spec.Name == facerec.FaceRes.Name && same <= diff {
			t.Errorf("faceres: same person %.3f not above different people %.3f", same, diff)
		}
	}
}

func cosine(t *testing.T, a, b []float32) float64 {
	t.Helper()
	r, err := match.Default.Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return r.Cosine
}
