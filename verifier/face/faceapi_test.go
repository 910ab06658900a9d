package face_test

import (
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/match"
)

// TestFaceAPIMultiFaceReference runs the whole engine on face-api.js's
// multi-face test image and checks what its expected outputs allow
// without face-api's own detector and 68-point net (which we do not run;
// facerec's TestFaceAPIMultiFaceDescriptors checks the descriptors on its
// own crops): we find the same six faces; each pairs with exactly one of
// its landmark sets, our mesh's eye centres (between the eye corners)
// within 0.08 interocular distances of its eye centres (measured ≤ 0.05,
// 2 px: the two models place eyes alike); and our descriptor, from our
// eye-aligned crop, is closest to face-api's descriptor of the same face
// and a definite match to it (measured 0.17–0.30).
func TestFaceAPIMultiFaceReference(t *testing.T) {
	a := engine(t, face.DefaultOptions).NewAnalyzer()
	var marks [][]reftest.Point68
	var want [][]float64
	reftest.FaceAPIShared(t, "facesFaceLandmarkPositions.json", &marks)
	reftest.FaceAPIShared(t, "facesFaceDescriptors.json", &want)
	faces, err := a.Analyze(sharedImage(t, a, "reference/faces.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(faces) != len(marks) || len(want) != len(marks) {
		t.Fatalf("%d faces, face-api.js %d (%d descriptors)", len(faces), len(marks), len(want))
	}
	paired := map[int]bool{}
	for i, f := range faces {
		// Image-left eye: mesh 33/133; image-right: 362/263.
		l := reftest.Point68{X: (f.Mesh[33][0] + f.Mesh[133][0]) / 2, Y: (f.Mesh[33][1] + f.Mesh[133][1]) / 2}
		r := reftest.Point68{X: (f.Mesh[362][0] + f.Mesh[263][0]) / 2, Y: (f.Mesh[362][1] + f.Mesh[263][1]) / 2}
		iod := math.Hypot(r.X-l.X, r.Y-l.Y)
		best, bj := math.Inf(1), -1
		for j, m := range marks {
			wl, wr := reftest.EyeCentres(m)
			if d := math.Max(math.Hypot(wl.X-l.X, wl.Y-l.Y), math.Hypot(wr.X-r.X, wr.Y-r.Y)) / iod; d < best {
				best, bj = d, j
			}
		}
		if best > 0.08 || paired[bj] {
			t.Errorf("face %d %v: nearest landmark set %d at %.3f interocular distances (already paired: %v)", i, f.Box, bj, best, paired[bj])
			continue
		}
		paired[bj] = true
		nearest, nd := -1, math.Inf(1)
		var same match.Result
		for j, w := range want {
			d := make([]float32, len(w))
			for k, v := range w {
				d[k] = float32(v)
			}
			res, err := match.Default.Compare(f.Descriptor[:], d)
			if err != nil {
				t.Fatal(err)
			}
			if res.Distance < nd {
				nearest, nd = j, res.Distance
			}
			if j == bj {
				same = res
			}
		}
		if nearest != bj || same.Tier != match.DefiniteMatch {
			t.Errorf("face %d: %s at %.3f to face-api's descriptor of the same face; nearest is face %d at %.3f", i, same.Tier, same.Distance, nearest, nd)
		}
	}
}
