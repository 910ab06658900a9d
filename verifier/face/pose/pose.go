// Package pose turns one 468-point face mesh into the per-frame signals
// active liveness needs: head orientation (yaw, pitch, roll) and an eye
// aspect ratio per eye. Both are pure geometry on the mesh points.
//
// Landmark indices are MediaPipe face-mesh indices, the order Human's
// facemesh model outputs (verifier/face/facemesh).
package pose

import (
	"math"

	"github.com/idgate/idgate/verifier/face/facemesh"
)

// Mesh landmarks that span the head's own axes. They sit on rigid parts of
// the face (bone, not lips or eyelids), so talking and blinking do not move
// them.
const (
	Forehead   = 10  // top of the forehead, on the midline
	Chin       = 152 // bottom of the chin, on the midline
	RightCheek = 234 // subject's right face edge at eye level (image left)
	LeftCheek  = 454 // subject's left face edge at eye level (image right)
)

// Pose is the head's orientation in degrees, for an unmirrored camera
// frame (x right, y down, z away from the camera):
//
//   - Yaw > 0: the face points towards the image's right, i.e. the subject
//     turned to their own left. 0 is facing the camera. Human reports yaw
//     with the opposite sign and about 1.4 times smaller (it leaves the
//     depth unscaled); on the Foreman frames ours spans −30° to +55°.
//   - Pitch > 0: the face points downwards. The forehead point lies
//     further back than the chin on some faces, so an upright face facing
//     the camera reads anywhere from about 0 to +20; use pitch relative
//     to the subject's own neutral.
//   - Roll > 0: the head tilts clockwise in the image (the subject's left
//     cheek, on the image's right, is lower).
type Pose struct{ Yaw, Pitch, Roll float64 }

// Estimate builds the head's frame from two vectors: forehead to chin
// (the y axis) and cheek to cheek (made orthogonal to y: the x axis), with
// z = x × y pointing into the scene. Depth is rescaled to pixels first:
// the model's z shares the 192 px crop's scale, so it is multiplied by the
// box side / 192 like x and y. The frame is read as the rotation
// roll · pitch · yaw (yaw about the head's vertical axis, then pitch, then
// roll in the image plane):
//
//	pitch = asin(y.z), roll = atan2(−y.x, y.y), yaw = atan2(x.z, z.z)
func Estimate(m *facemesh.Mesh) Pose {
	zs := (m.Max.X - m.Min.X) / 192
	pt := func(i int) vec {
		p := m.Points[i]
		return vec{p[0], p[1], p[2] * zs}
	}
	y := pt(Chin).sub(pt(Forehead)).unit()
	z := pt(LeftCheek).sub(pt(RightCheek)).unit().cross(y).unit()
	x := y.cross(z)
	return Pose{
		Yaw:   deg(math.Atan2(x[2], z[2])),
		Pitch: deg(math.Asin(clamp(y[2], -1, 1))),
		Roll:  deg(math.Atan2(-y[0], y[1])),
	}
}

type vec [3]float64

func (a vec) sub(b vec) vec { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func (a vec) cross(b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// unit returns a scaled to length 1; the zero vector stays zero so a
// degenerate mesh gives angles of 0, never NaN.
func (a vec) unit() vec {
	l := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return vec{}
	}
	return vec{a[0] / l, a[1] / l, a[2] / l}
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

func deg(r float64) float64 { return r * 180 / math.Pi }
