package pose

import (
	"math"

	"github.com/idgate/idgate/verifier/face/facemesh"
)

// eye names one eye's mesh contour: the two corners and three
// upper/lower eyelid pairs, each pair facing each other across the eye.
type eye struct {
	outer, inner int
	lids         [3][2]int // upper, lower
}

// Eyelid landmarks. MediaPipe's eye contours run corner to corner along
// each lid; the pairs are the middle three points of the upper lid with
// the lower-lid points under them.
var (
	rightEye = eye{outer: 33, inner: 133, lids: [3][2]int{{160, 144}, {159, 145}, {158, 153}}}
	leftEye  = eye{outer: 263, inner: 362, lids: [3][2]int{{387, 373}, {386, 374}, {385, 380}}}
)

// Eyes holds the eye aspect ratio of the subject's right eye (image left)
// and left eye (image right).
type Eyes struct{ Right, Left float64 }

// Mean is the two eyes' average: blinks close both eyes together, and the
// average halves each eye's landmark noise.
func (e Eyes) Mean() float64 { return (e.Right + e.Left) / 2 }

// EyeAspect returns each eye's aspect ratio: the mean lid gap over the
// three lid pairs divided by the corner-to-corner width, measured in 3-D
// (depth rescaled to pixels as in Estimate) so that turning the head,
// which shortens the eye's image width, changes the ratio less. With the
// lids refined by Eyelids, an open eye reads about 0.2–0.4 and a closed
// one about 0.1 (Foreman); from the mesh alone a closed eye reads barely
// lower than an open one.
func EyeAspect(m *facemesh.Mesh) Eyes {
	zs := (m.Max.X - m.Min.X) / 192
	dist := func(a, b int) float64 {
		p, q := m.Points[a], m.Points[b]
		return math.Sqrt(sq(p[0]-q[0]) + sq(p[1]-q[1]) + sq((p[2]-q[2])*zs))
	}
	ratio := func(e eye) float64 {
		w := dist(e.outer, e.inner)
		if !(w > 0) {
			return 0
		}
		var gap float64
		for _, l := range e.lids {
			gap += dist(l[0], l[1])
		}
		return gap / float64(len(e.lids)) / w
	}
	return Eyes{Right: ratio(rightEye), Left: ratio(leftEye)}
}

func sq(v float64) float64 { return v * v }
