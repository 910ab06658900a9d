package card

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// warpRGBA builds a w×h colour image whose pixel (x, y) is src sampled
// bilinearly at m(x+0.5, y+0.5) (m maps destination corners-based
// coordinates into the source's); outside the source reads as black.
func warpRGBA(src *image.RGBA, w, h int, m raster.Homography) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
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
			o := dst.PixOffset(x, y)
			for c := 0; c < 4; c++ {
				p := func(xx, yy int) float64 { return float64(src.Pix[yy*src.Stride+4*xx+c]) }
				v := (p(x0, y0)*(1-fx)+p(x1, y0)*fx)*(1-fy) + (p(x0, y1)*(1-fx)+p(x1, y1)*fx)*fy
				dst.Pix[o+c] = raster.Clamp8(v)
			}
		}
	}
	return dst
}
