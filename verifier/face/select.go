package face

import (
	"math"

	"github.com/idgate/idgate/verifier/face/facemesh"
)

// Face selection: which confirmed faces in a photo are the same face found
// twice, which are too weak or too small beside the subject to count, and
// which one is the subject. The engine (Analyze, Single) and the liveness
// analyser share these rules, so a photo and a frame count people alike.
//
// Measured with the engine on the shared test data (faces/groups,
// faces/reference, faces/labeled and those crops scaled 0.6–4× on plain
// canvases, 840 images): the detector's stray boxes, confirmed by the mesh
// at 0.64–1.00, came with detector scores 0.20–0.37, 0.22–0.44 of the
// real face's, at 0.25–0.60 of its size, lying over the face or its edge.
// In the five group photos every real face scored at least 0.59 of the
// strongest (bbt5: 0.38 beside 0.64) and the second largest face was
// 0.70–0.97 of the largest's size, 0.83 or more in four of the five.

// ContainedShare: a face whose box lies at least this share inside
// another's is the same face found twice, and only the one the detector
// scored higher is kept. IoU alone misses a small box inside a large one
// (a box a quarter of the face's side has an IoU of 0.06); in the group
// photos no two people's boxes overlap at all.
const ContainedShare = 0.5

// WeakRatio: a face the detector scored below this fraction of the
// strongest face's score is not counted (stray boxes: at most 0.44 of the
// real face's score; real faces in the group photos: at least 0.59).
const WeakRatio = 0.5

// DominantRatio: beside the subject (the largest face that is not weak),
// another face counts only from this fraction of its size up. Licenses
// print a small "ghost" copy of the portrait and selfies catch people far
// behind; the real second faces of the group photos are 0.70–0.97 of the
// largest's size.
const DominantRatio = 0.6

// Region is what selection weighs of one confirmed face.
type Region struct {
	// Box is x0, y0, x1, y1 in pixels.
	Box [4]float64
	// Size is the face's extent across its landmarks in pixels.
	Size float64
	// Score is the detector's confidence.
	Score float32
}

// MeshRegion is the region of a face with landmarks p (pixels) that the
// detector scored score: the square on the longer side of the landmarks'
// extent, as Face.Box before clamping.
func MeshRegion(p *[facemesh.Points][3]float64, score float32) Region {
	lo, hi := extent(p)
	x0, y0, x1, y1 := squareAround(lo, hi)
	return Region{Box: [4]float64{x0, y0, x1, y1}, Size: math.Max(hi.X-lo.X, hi.Y-lo.Y), Score: score}
}

// Duplicate reports whether r is a face already among kept, found again
// (ContainedShare). Callers visit faces in the detector's order, strongest
// first, so the copy the detector scored higher is the one kept.
func (r Region) Duplicate(kept []Region) bool {
	for _, k := range kept {
		if contained(r.Box, k.Box) >= ContainedShare {
			return true
		}
	}
	return false
}

// Subject returns the index of the subject among distinct regions (the
// largest face not weak beside the strongest, WeakRatio) and the indexes
// of the other faces that count beside it (not weak, at least
// DominantRatio of its size). It returns -1 for no regions.
func Subject(r []Region) (subject int, others []int) {
	var strongest float32
	for _, x := range r {
		strongest = max(strongest, x.Score)
	}
	subject = -1
	for i, x := range r {
		if x.Score >= WeakRatio*strongest && (subject < 0 || x.Size > r[subject].Size) {
			subject = i
		}
	}
	for i, x := range r {
		if i != subject && x.Score >= WeakRatio*strongest && x.Size >= DominantRatio*r[subject].Size {
			others = append(others, i)
		}
	}
	return subject, others
}

// contained is the share of the smaller box's area inside the other.
func contained(a, b [4]float64) float64 {
	area := func(r [4]float64) float64 { return max(r[2]-r[0], 0) * max(r[3]-r[1], 0) }
	ix := max(min(a[2], b[2])-max(a[0], b[0]), 0)
	iy := max(min(a[3], b[3])-max(a[1], b[1]), 0)
	small := min(area(a), area(b))
	if small <= 0 {
		return 0
	}
	return ix * iy / small
}
