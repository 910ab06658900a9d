package pdf417

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// A card tilted away from the camera (keystone), above all when also
// rotated, shears and fans the symbol: the bars lean one way at its left end
// and another at its right end, and the rows are no longer perpendicular to
// the bars. zxing needs the start and stop patterns near vertical and the
// rows near level. Measuring both bar angles and the row angle on the
// upright crop gives four lines — left, right, top, bottom — whose
// quadrilateral a homography maps back to a rectangle.
const (
	// sideSlice is where each end slice starts, as a fraction of the
	// crop's half width from its centre.
	sideSlice = 0.4
	// minSkew is the smallest lean worth correcting; below it the plain
	// upright crop is as good.
	minSkew = 0.75 * math.Pi / 180
)

type line struct{ p, d raster.Point }

// intersect returns where two lines cross; ok is false when they are
// (nearly) parallel.
func intersect(a, b line) (raster.Point, bool) {
	det := b.d.X*a.d.Y - a.d.X*b.d.Y
	if math.Abs(det) < 1e-9 {
		return raster.Point{}, false
	}
	dx, dy := b.p.X-a.p.X, b.p.Y-a.p.Y
	t := (b.d.X*dy - b.d.Y*dx) / det
	return raster.Point{X: a.p.X + t*a.d.X, Y: a.p.Y + t*a.d.Y}, true
}

// rectification returns the map from the pixels of a region's upright
// crop (scale 1) to the rectified ones' sources, or ok false when the crop
// needs no such correction.
func rectification(crop *image.Gray) (toCrop raster.Homography, ok bool) {
	w, h := float64(crop.Rect.Dx()), float64(crop.Rect.Dy())
	if w < 8 || h < 8 {
		return raster.Homography{}, false
	}
	whole := region{center: raster.Point{X: w/2 - 0.5, Y: h/2 - 0.5}, u: raster.Point{X: 1}, v: raster.Point{Y: 1}, halfU: w / 2, halfV: h / 2}
	aL := refineAngle(crop, whole, 1, -1, -sideSlice)
	aR := refineAngle(crop, whole, 1, sideSlice, 1)
	rho := rowAngle(crop)
	if math.Abs(aL) < minSkew && math.Abs(aR) < minSkew && math.Abs(rho) < minSkew {
		return raster.Homography{}, false
	}
	mid := (1 + sideSlice) / 2 // centre of an end slice
	xL, xR := w/2*(1-mid), w/2*(1+mid)
	yT, yB := 0.15*h, 0.85*h
	bar := func(a float64) raster.Point { return raster.Point{X: -math.Sin(a), Y: math.Cos(a)} }
	row := raster.Point{X: math.Cos(rho), Y: math.Sin(rho)}
	left, right := line{raster.Point{X: xL, Y: h / 2}, bar(aL)}, line{raster.Point{X: xR, Y: h / 2}, bar(aR)}
	top, bottom := line{raster.Point{X: w / 2, Y: yT}, row}, line{raster.Point{X: w / 2, Y: yB}, row}
	var src [4]raster.Point
	for i, pair := range [4][2]line{{left, top}, {right, top}, {right, bottom}, {left, bottom}} {
		p, ok := intersect(pair[0], pair[1])
		if !ok {
			return raster.Homography{}, false
		}
		src[i] = p
	}
	dst := [4]raster.Point{{X: xL, Y: yT}, {X: xR, Y: yT}, {X: xR, Y: yB}, {X: xL, Y: yB}}
	m, err := raster.FromQuad(dst, src)
	if err != nil {
		return raster.Homography{}, false
	}
	return m, true
}

// rectified samples the photo through toCrop (from rectification) at
// scale s, going straight to the photo so as to interpolate only once.
func (r region) rectified(g *image.Gray, toCrop raster.Homography, s float64) *image.Gray {
	// Pixel centres of the scaled image onto those of the scale-1 one.
	scale := raster.Homography{1 / s, 0, 0.5/s - 0.5, 0, 1 / s, 0.5/s - 0.5, 0, 0, 1}
	m := scale.Then(toCrop).Then(r.uprightMap(1))
	return raster.Warp(g, int(2*r.halfU*s), int(2*r.halfV*s), m, 0xff)
}
