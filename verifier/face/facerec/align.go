package facerec

import "math"

// Geometry places a face in a square descriptor crop by its eyes: rotated
// so the eye line is level, scaled so the crop is Width eye distances
// wide, with the eye midpoint EyeY of the way down and centred across.
type Geometry struct {
	Width, EyeY float64
}

// Matrix maps pixels of a side×side crop to image pixels, given the eye
// centres in the image (right is the subject's right eye, on the image's
// left).
func (g Geometry) Matrix(right, left [2]float64, side int) [6]float64 {
	sd := float64(side)
	s := math.Hypot(left[0]-right[0], left[1]-right[1]) * g.Width / sd // image pixels per crop pixel
	th := math.Atan2(left[1]-right[1], left[0]-right[0])
	c, sn := s*math.Cos(th), s*math.Sin(th)
	mx, my := (right[0]+left[0])/2, (right[1]+left[1])/2
	u0, v0 := sd/2, sd*g.EyeY // where the eye midpoint lands
	return [6]float64{c, -sn, mx - c*u0 + sn*v0, sn, c, my - sn*u0 - c*v0}
}
