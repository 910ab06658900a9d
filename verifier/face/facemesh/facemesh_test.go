package facemesh

import (
	"math"
	"os"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tfjs"
	"github.com/idgate/idgate/verifier/imgio"
)

// TestParityWithHuman compares our 468 points with Human's (mesh on, iris
// off) for every face: Human truncates coordinates to whole pixels, so we
// truncate too and require every point within 1 px.
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
	mesher := New(load(ModelFile))
	var ref reftest.Human
	reftest.Load(t, "human.json", &ref)
	names := reftest.SortedKeys(ref.Results)
	worst, over1, total := 0.0, 0, 0
	for _, name := range names {
		want := ref.Results[name]
		img := reftest.FaceImage(t, reftest.HumanImages[name])
		faces, err := det.Detect(img)
		if err != nil {
			t.Fatal(err)
		}
		if len(faces) != len(want.MeshNoIris) {
			t.Fatalf("%s: %d faces, reference %d", name, len(faces), len(want.MeshNoIris))
		}
		for i, w := range want.MeshNoIris {
			// Pair by box: the reference box is the mesh-centred one.
			best, bm := math.Inf(1), Mesh{}
			for _, f := range faces {
				m, err := mesher.Run(img, f)
				if err != nil {
					t.Fatal(err)
				}
				x0, y0 := math.Max(0, m.Min.X), math.Max(0, m.Min.Y)
				if d := math.Hypot(x0-w.Box[0], y0-w.Box[1]); d < best {
					best, bm = d, m
				}
			}
			if math.Abs(float64(bm.Score)-w.FaceScore) > 0.0051 {
				t.Errorf("%s face %d: score %.4f, reference %.2f", name, i, bm.Score, w.FaceScore)
			}
			for k, p := range w.Mesh {
				total++
				dx := math.Abs(math.Trunc(bm.Points[k][0]) - p[0])
				dy := math.Abs(math.Trunc(bm.Points[k][1]) - p[1])
				d := math.Max(dx, dy)
				worst = math.Max(worst, d)
				if d > 1 {
					over1++
					if over1 <= 5 {
						t.Errorf("%s face %d point %d: (%.2f, %.2f), reference (%v, %v)", name, i, k, bm.Points[k][0], bm.Points[k][1], p[0], p[1])
					}
				}
			}
		}
	}
	t.Logf("%d points: worst |Δ| %.0f px after truncation, %d beyond 1 px", total, worst, over1)
}

func BenchmarkMesh(b *testing.B) {
	set := modelstest.Set(b)
	load := func(name string) *tfjs.Model {
		m, err := tfjs.Load(set.ReadFile, name)
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	data, err := os.ReadFile(testkit.Data(b, "testdata", "liveness", "foreman", "f001.jpg"))
	if err != nil {
		b.Fatal(err)
	}
	img, err := imgio.Decode(data, imgio.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	faces, err := blazeface.New(load(blazeface.ModelFile), blazeface.Defaults).Detect(img)
	if err != nil || len(faces) == 0 {
		b.Fatalf("no face in the benchmark frame: %v", err)
	}
	m := New(load(ModelFile))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Run(img, faces[0]); err != nil {
			b.Fatal(err)
		}
	}
}
