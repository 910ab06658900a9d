package card

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// segmentMaxSide bounds the working copy the outline is searched on: the
// card's outline needs no more, and the line search stays fast.
const segmentMaxSide = 640

// work is the photo shrunk to at most segmentMaxSide on its long side, in
// colour (three planes, 0–255), slightly smoothed, with its gradient.
type work struct {
	w, h int
	// sx, sy are photo pixels per working pixel along x and y.
	sx, sy float64
	c      [3][]float32
	// mag is the colour gradient's magnitude: the largest of the three
	// channels' Sobel magnitudes (divided by 8, so a step of s levels
	// between flat areas peaks at about s/2); gx, gy that channel's
	// gradient.
	mag, gx, gy []float32
	// tex and texStep are the texture of each textureTile-sided tile,
	// texW tiles a row (texture).
	tex, texStep []float32
	texW         int
	// profiles are the candidate lines' edge profiles (candidates).
	profiles []edgeProfile
	// hist is stock's histogram, made on its first use.
	hist *stockHist
	// pw and ph are the photo's size and luma its luminance (lumaAt),
	// for the grain finer than a working pixel (tableLikeStock).
	pw, ph int
	luma   func(x, y int) float32
}

// newWork shrinks img by an integer factor (averaging, reading each
// photo pixel once and never copying the photo) and smooths it.
func newWork(img image.Image) *work {
	b := img.Bounds()
	pw, ph := b.Dx(), b.Dy()
	f := 1
	for max(pw, ph)/f > segmentMaxSide {
		f++
	}
	w, h := pw/f, ph/f
	wk := &work{w: w, h: h, pw: pw, ph: ph, luma: lumaAt(img)}
	if w < 1 || h < 1 {
		return wk
	}
	wk.sx, wk.sy = float64(pw)/float64(w), float64(ph)/float64(h)
	for k := range wk.c {
		wk.c[k] = make([]float32, w*h)
	}
	if m, ok := img.(*image.YCbCr); ok {
		wk.shrinkYCbCr(m, f)
	} else {
		at := pixelAt(img)
		norm := float32(1) / float32(257*f*f)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var r, g, bl uint32
				for yy := y * f; yy < (y+1)*f; yy++ {
					for xx := x * f; xx < (x+1)*f; xx++ {
						cr, cg, cb, _ := at(b.Min.X+xx, b.Min.Y+yy)
						r, g, bl = r+cr, g+cg, bl+cb
					}
				}
				i := y*w + x
				wk.c[0][i], wk.c[1][i], wk.c[2][i] = float32(r)*norm, float32(g)*norm, float32(bl)*norm
			}
		}
	}
	for k := range wk.c {
		blur(wk.c[k], w, h, 1)
	}
	wk.gradient()
	wk.texture()
	return wk
}

// shrinkYCbCr fills wk.c from a decoded JPEG, averaging f×f blocks of
// Y, Cb and Cr and converting the average (ycc): the per-pixel
// conversion was a third of the finder's time (bench/robust's profile).
func (wk *work) shrinkYCbCr(m *image.YCbCr, f int) {
	w, h := wk.w, wk.h
	p := newYCC(m)
	ys, cbs, crs := make([]float32, w), make([]float32, w), make([]float32, w)
	norm := 1 / float32(f*f)
	for y := 0; y < h; y++ {
		clear(ys)
		clear(cbs)
		clear(crs)
		for yy := y * f; yy < (y+1)*f; yy++ {
			// One row's planes, read by index (p.at per pixel was a
			// sixth of the finder's time: bench/robust's profile).
			yrow, cbrow, crrow, cx := p.row(yy)
			for x := 0; x < w; x++ {
				for xx := x * f; xx < (x+1)*f; xx++ {
					ci := (cx+xx)>>p.hs - p.cx0
					ys[x], cbs[x], crs[x] = ys[x]+float32(yrow[xx]), cbs[x]+float32(cbrow[ci]), crs[x]+float32(crrow[ci])
				}
			}
		}
		for x := 0; x < w; x++ {
			r, g, b := toRGB(ys[x]*norm, cbs[x]*norm, crs[x]*norm)
			i := y*w + x
			wk.c[0][i], wk.c[1][i], wk.c[2][i] = clamp255(r), clamp255(g), clamp255(b)
		}
	}
}

func clamp255(v float32) float32 { return min(max(v, 0), 255) }

// blur is a separable Gaussian of sigma pixels, clamped at the borders.
func blur(p []float32, w, h int, sigma float64) {
	k := raster.GaussianKernel[float32](sigma, 2.5)
	r := len(k) / 2
	// Away from the border no tap needs clamping: those pixels (all but
	// r a side) skip it, as the clamped loop was a tenth of the finder's
	// time.
	tmp := make([]float32, len(p))
	for y := 0; y < h; y++ {
		row, out := p[y*w:(y+1)*w], tmp[y*w:(y+1)*w]
		for x := 0; x < w; x++ {
			var v float32
			if x >= r && x < w-r {
				// The kernel is symmetric: one product a pair of taps.
				v = k[r] * row[x]
				for i := 1; i <= r; i++ {
					v += k[r+i] * (row[x-i] + row[x+i])
				}
			} else {
				for i, kv := range k {
					v += kv * row[min(max(x+i-r, 0), w-1)]
				}
			}
			out[x] = v
		}
	}
	for y := 0; y < h; y++ {
		out := p[y*w : (y+1)*w]
		centre := tmp[y*w : (y+1)*w]
		for x := range out {
			out[x] = k[r] * centre[x]
		}
		for i := 1; i <= r; i++ {
			above, below := tmp[max(y-i, 0)*w:][:w], tmp[min(y+i, h-1)*w:][:w]
			for x := range out {
				out[x] += k[r+i] * (above[x] + below[x])
			}
		}
	}
}

// gradient fills mag, gx and gy (zero on the border).
func (wk *work) gradient() {
	w, h := wk.w, wk.h
	wk.mag, wk.gx, wk.gy = make([]float32, w*h), make([]float32, w*h), make([]float32, w*h)
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			var best, bx, by float32
			for _, p := range wk.c {
				gx := (p[i-w+1] + 2*p[i+1] + p[i+w+1] - p[i-w-1] - 2*p[i-1] - p[i+w-1]) / 8
				gy := (p[i+w-1] + 2*p[i+w] + p[i+w+1] - p[i-w-1] - 2*p[i-w] - p[i-w+1]) / 8
				if m := gx*gx + gy*gy; m > best {
					best, bx, by = m, gx, gy
				}
			}
			wk.mag[i], wk.gx[i], wk.gy[i] = float32(math.Sqrt(float64(best))), bx, by
		}
	}
}

// colour is the smoothed colour at (x, y), in working coordinates with
// pixel edges at integers, bilinear; ok false outside the copy.
func (wk *work) colour(x, y float64) (c [3]float32, ok bool) {
	x, y = x-0.5, y-0.5
	if x < 0 || y < 0 || x > float64(wk.w-1) || y > float64(wk.h-1) {
		return c, false
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, wk.w-1), min(y0+1, wk.h-1)
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	for k, p := range wk.c {
		top := p[y0*wk.w+x0]*(1-fx) + p[y0*wk.w+x1]*fx
		bottom := p[y1*wk.w+x0]*(1-fx) + p[y1*wk.w+x1]*fx
		c[k] = top*(1-fy) + bottom*fy
	}
	return c, true
}

// colourDist is the Euclidean distance of two colours.
func colourDist(a, b [3]float32) float64 {
	dr, dg, db := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return math.Sqrt(float64(dr*dr + dg*dg + db*db))
}
