package raster

import (
	"errors"
	"math"
)

// Point is a real-valued image coordinate.
type Point struct{ X, Y float64 }

// Homography is a 3×3 projective transform, row-major, mapping (x, y, 1).
type Homography [9]float64

// ErrDegenerate means four points do not define a projective transform
// (three of them are collinear).
var ErrDegenerate = errors.New("raster: degenerate quadrilateral")

// Apply maps (x, y).
func (m Homography) Apply(x, y float64) (float64, float64) {
	d := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / d, (m[3]*x + m[4]*y + m[5]) / d
}

// Then returns the transform that applies m first, then n.
func (m Homography) Then(n Homography) Homography {
	var r Homography
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[3*i+j] += n[3*i+k] * m[3*k+j]
			}
		}
	}
	return r
}

// Affine returns the similarity that rotates by angle radians about the
// origin, scales by s and then translates by (tx, ty).
func Affine(angle, s, tx, ty float64) Homography {
	c, si := math.Cos(angle)*s, math.Sin(angle)*s
	return Homography{c, -si, tx, si, c, ty, 0, 0, 1}
}

// FromQuad returns the homography mapping src[i] to dst[i] for four point
// pairs, by solving the 8×8 linear system with h33 = 1.
func FromQuad(src, dst [4]Point) (Homography, error) {
	var a [8][9]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i].X, src[i].Y, dst[i].X, dst[i].Y
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	// Gaussian elimination with partial pivoting.
	for c := 0; c < 8; c++ {
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return Homography{}, ErrDegenerate
		}
		a[c], a[p] = a[p], a[c]
		for r := 0; r < 8; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 9; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var m Homography
	for i := 0; i < 8; i++ {
		m[i] = a[i][8] / a[i][i]
	}
	m[8] = 1
	return m, nil
}
