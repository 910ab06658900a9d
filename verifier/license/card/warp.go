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
	at := pixelAt(src)
	// rgba reads one source pixel as 16-bit channels; from a decoded JPEG
	// it reads Y, Cb and Cr (scaled alike) and the blend is converted
	// once (the conversion is linear, so only where a channel clips does
	// it differ from blending converted pixels): converting each of the
	// four reads was a fifth of the finder's time (bench/robust's
	// profile).
	rgba := func(x, y int) [4]float64 {
		r, g, bl, a := at(b.Min.X+x, b.Min.Y+y)
		return [4]float64{float64(r), float64(g), float64(bl), float64(a)}
	}
	ycc, isYCC := src.(*image.YCbCr)
	if isYCC {
		rgba = func(x, y int) [4]float64 {
			px, py := b.Min.X+x, b.Min.Y+y
			ci := ycc.COffset(px, py)
			return [4]float64{257 * float64(ycc.Y[ycc.YOffset(px, py)]), 257 * float64(ycc.Cb[ci]), 257 * float64(ycc.Cr[ci]), 0xffff}
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sx, sy := m.Apply(float64(x)+0.5, float64(y)+0.5)
			sx, sy = sx-0.5, sy-0.5 // to pixel-centre coordinates
			if math.IsNaN(sx) || math.IsNaN(sy) || sx < -0.5 || sy < -0.5 || sx > float64(sw)-0.5 || sy > float64(sh)-0.5 {
				continue
			}
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			x1, y1 := min(max(x0+1, 0), sw-1), min(max(y0+1, 0), sh-1)
			x0, y0 = min(max(x0, 0), sw-1), min(max(y0, 0), sh-1)
			p00, p10, p01, p11 := rgba(x0, y0), rgba(x1, y0), rgba(x0, y1), rgba(x1, y1)
			o := dst.PixOffset(x, y)
			var v [4]float64
			for c := range v {
				v[c] = ((p00[c]*(1-fx)+p10[c]*fx)*(1-fy) + (p01[c]*(1-fx)+p11[c]*fx)*fy) / 257
			}
			if isYCC {
				yv, cb, cr := v[0], v[1]-128, v[2]-128
				v[0], v[1], v[2] = yv+1.402*cr, yv-0.344136*cb-0.714136*cr, yv+1.772*cb
			}
			for c := range v {
				dst.Pix[o+c] = raster.Clamp8(v[c])
			}
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
