package card

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// warpColor builds a w×h colour image whose pixel (x, y) is src sampled
// bilinearly at m(x+0.5, y+0.5); m maps destination coordinates into the
// source's, both with pixel edges at integers and the source's origin at
// its Bounds().Min. Outside the source reads as black.
func warpColor(src image.Image, w, h int, m raster.Homography) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	// A source pixel's three channels, 0–255: R, G, B, or from a decoded
	// JPEG Y, Cb and Cr, blended and then converted once (ycc): converting
	// each of the four reads made the warp a fifth of the finder's time
	// (bench/robust's profile). The JPEG's planes are read in the loop
	// itself (ycc.at inlined): through a function value, the four reads
	// a pixel were half the warp's time.
	ym, isYCC := src.(*image.YCbCr)
	var p ycc
	if isYCC {
		p = newYCC(ym)
	}
	at := pixelAt(src)
	rgb := func(x, y int) (c [3]float32) {
		r, g, bl, _ := at(b.Min.X+x, b.Min.Y+y)
		return [3]float32{float32(r) / 257, float32(g) / 257, float32(bl) / 257}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sx, sy := m.Apply(float64(x)+0.5, float64(y)+0.5)
			sx, sy = sx-0.5, sy-0.5 // to pixel-centre coordinates
			if math.IsNaN(sx) || math.IsNaN(sy) || sx < -0.5 || sy < -0.5 || sx > float64(sw)-0.5 || sy > float64(sh)-0.5 {
				continue
			}
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := float32(sx-float64(x0)), float32(sy-float64(y0))
			x1, y1 := min(max(x0+1, 0), sw-1), min(max(y0+1, 0), sh-1)
			x0, y0 = min(max(x0, 0), sw-1), min(max(y0, 0), sh-1)
			var a, b, c, d [3]float32
			if isYCC {
				a[0], a[1], a[2] = p.at(x0, y0)
				b[0], b[1], b[2] = p.at(x1, y0)
				c[0], c[1], c[2] = p.at(x0, y1)
				d[0], d[1], d[2] = p.at(x1, y1)
			} else {
				a, b, c, d = rgb(x0, y0), rgb(x1, y0), rgb(x0, y1), rgb(x1, y1)
			}
			var v [3]float32
			for k := range v {
				v[k] = (a[k]*(1-fx)+b[k]*fx)*(1-fy) + (c[k]*(1-fx)+d[k]*fx)*fy
			}
			if isYCC {
				v[0], v[1], v[2] = toRGB(v[0], v[1], v[2])
			}
			o := dst.PixOffset(x, y)
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = raster.Clamp8(float64(v[0])), raster.Clamp8(float64(v[1])), raster.Clamp8(float64(v[2])), 255
		}
	}
	return dst
}

// pixelAt reads src's pixel as At(x, y).RGBA() does, without boxing the
// colour for the common decoded types (a 12 MP photo's card costs 1.8
// million At calls, each an allocation).
func pixelAt(src image.Image) func(x, y int) (r, g, b, a uint32) {
	switch m := src.(type) {
	case *image.YCbCr:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.YCbCrAt(x, y).RGBA() }
	case *image.RGBA:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.RGBAAt(x, y).RGBA() }
	case *image.NRGBA:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.NRGBAAt(x, y).RGBA() }
	case *image.Gray:
		return func(x, y int) (uint32, uint32, uint32, uint32) { return m.GrayAt(x, y).RGBA() }
	}
	return func(x, y int) (uint32, uint32, uint32, uint32) { return src.At(x, y).RGBA() }
}
