package pose

import (
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
)

// rotated places the four pose landmarks of an upright, frontal head
// (forehead above chin, cheeks level, all at depth 0) rotated by yaw
// about the vertical axis, then pitch, then roll in the image plane. The
// box is 192 px, so depth is not rescaled.
func rotated(yaw, pitch, roll float64) *facemesh.Mesh {
	m := &facemesh.Mesh{Min: blazeface.Point{}, Max: blazeface.Point{X: 192, Y: 192}}
	y, p, r := yaw*math.Pi/180, pitch*math.Pi/180, roll*math.Pi/180
	put := func(i int, x, yy, z float64) {
		// yaw: face normal (0,0,-1) turns towards +x.
		x, z = x*math.Cos(y)-z*math.Sin(y), x*math.Sin(y)+z*math.Cos(y)
		// pitch: normal turns towards +y (down).
		yy, z = yy*math.Cos(p)-z*math.Sin(p), yy*math.Sin(p)+z*math.Cos(p)
		// roll: clockwise in the image.
		x, yy = x*math.Cos(r)-yy*math.Sin(r), x*math.Sin(r)+yy*math.Cos(r)
		m.Points[i] = [3]float64{96 + 50*x, 96 + 50*yy, 50 * z}
	}
	put(Forehead, 0, -1, 0)
	put(Chin, 0, 1, 0)
	put(RightCheek, -1, 0, 0)
	put(LeftCheek, 1, 0, 0)
	return m
}

func TestEstimateRecoversRotation(t *testing.T) {
	for _, c := range []Pose{{0, 0, 0}, {30, 0, 0}, {-40, 0, 0}, {0, 15, 0}, {0, -10, 0}, {0, 0, 12}, {25, 0, -8}} {
		got := Estimate(rotated(c.Yaw, c.Pitch, c.Roll))
		if math.Abs(got.Yaw-c.Yaw) > 0.01 || math.Abs(got.Pitch-c.Pitch) > 0.01 || math.Abs(got.Roll-c.Roll) > 0.01 {
			t.Errorf("rotation %+v: estimated %+v", c, got)
		}
	}
}

func TestEstimateDegenerateMeshIsFinite(t *testing.T) {
	var m facemesh.Mesh // every point at the origin, empty box
	p := Estimate(&m)
	for _, v := range []float64{p.Yaw, p.Pitch, p.Roll} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("degenerate mesh: %+v", p)
		}
	}
	e := EyeAspect(&m)
	if e.Right != 0 || e.Left != 0 {
		t.Fatalf("degenerate eyes: %+v", e)
	}
}

func TestEyeAspect(t *testing.T) {
	m := &facemesh.Mesh{Max: blazeface.Point{X: 192, Y: 192}}
	// Right eye 30 px wide with lid gaps 6, 9, 6 px: ratio 7/30. Left eye
	// closed (gaps 0).
	m.Points[rightEye.outer] = [3]float64{40, 80, 0}
	m.Points[rightEye.inner] = [3]float64{70, 80, 0}
	for k, g := range []float64{6, 9, 6} {
		l := rightEye.lids[k]
		m.Points[l[0]] = [3]float64{50 + 5*float64(k), 80 - g/2, 0}
		m.Points[l[1]] = [3]float64{50 + 5*float64(k), 80 + g/2, 0}
	}
	m.Points[leftEye.outer] = [3]float64{150, 80, 0}
	m.Points[leftEye.inner] = [3]float64{120, 80, 0}
	for k := range leftEye.lids {
		l := leftEye.lids[k]
		m.Points[l[0]] = [3]float64{130, 80, 0}
		m.Points[l[1]] = [3]float64{130, 80, 0}
	}
	e := EyeAspect(m)
	if math.Abs(e.Right-7.0/30) > 1e-9 || e.Left != 0 || math.Abs(e.Mean()-7.0/60) > 1e-9 {
		t.Fatalf("eye aspect %+v, want right 7/30, left 0", e)
	}
}
