// Package raster holds the few grey-image operations the PDF417 pipeline and
// its synthetic test set share: bilinear sampling, projective warps, blur and
// resizing. Images are *image.Gray with bounds at the origin.
package raster

import (
	"image"
	"math"
)

// New returns a w×h grey image filled with v.
func New(w, h int, v uint8) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	if v != 0 {
		for i := range g.Pix {
			g.Pix[i] = v
		}
	}
	return g
}

// Bilinear samples g at the real-valued point (x, y), pixel centres at
// integer coordinates. Points outside the image read as bg.
func Bilinear(g *image.Gray, x, y float64, bg uint8) float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if x < -0.5 || y < -0.5 || x > float64(w)-0.5 || y > float64(h)-0.5 || math.IsNaN(x) || math.IsNaN(y) {
		return float64(bg)
	}
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	x1, y1 := x0+1, y0+1
	x0, x1 = clamp(x0, 0, w-1), clamp(x1, 0, w-1)
	y0, y1 = clamp(y0, 0, h-1), clamp(y1, 0, h-1)
	r0, r1 := y0*g.Stride, y1*g.Stride
	top := float64(g.Pix[r0+x0])*(1-fx) + float64(g.Pix[r0+x1])*fx
	bot := float64(g.Pix[r1+x0])*(1-fx) + float64(g.Pix[r1+x1])*fx
	return top*(1-fy) + bot*fy
}

// Warp builds a w×h image whose pixel (x, y) is src sampled at m(x, y):
// m maps destination coordinates into the source.
func Warp(src *image.Gray, w, h int, m Homography, bg uint8) *image.Gray {
	dst := New(w, h, 0)
	for y := 0; y < h; y++ {
		row := dst.Pix[y*dst.Stride : y*dst.Stride+w]
		for x := range row {
			sx, sy := m.Apply(float64(x), float64(y))
			row[x] = Clamp8(Bilinear(src, sx, sy, bg))
		}
	}
	return dst
}

// Resize scales g to w×h: an area average when shrinking, so fine bars
// blend the way a camera sensor blends them, and bilinear when growing.
func Resize(g *image.Gray, w, h int) *image.Gray {
	sw, sh := g.Rect.Dx(), g.Rect.Dy()
	if w <= 0 || h <= 0 {
		return New(0, 0, 0)
	}
	if w >= sw && h >= sh {
		sx, sy := float64(sw)/float64(w), float64(sh)/float64(h)
		return Warp(g, w, h, Homography{sx, 0, 0.5*sx - 0.5, 0, sy, 0.5*sy - 0.5, 0, 0, 1}, 0xff)
	}
	return areaShrink(g, w, h)
}

// areaShrink averages the source area each destination pixel covers,
// weighting partly covered source pixels by their overlap.
func areaShrink(g *image.Gray, w, h int) *image.Gray {
	sw, sh := g.Rect.Dx(), g.Rect.Dy()
	fx, fy := float64(sw)/float64(w), float64(sh)/float64(h)
	// First shrink rows horizontally into float columns, then vertically.
	tmp := make([]float64, w*sh)
	xs := spans(sw, w, fx)
	for y := 0; y < sh; y++ {
		src := g.Pix[y*g.Stride : y*g.Stride+sw]
		for x, sp := range xs {
			var acc float64
			for _, c := range sp {
				acc += float64(src[c.i]) * c.w
			}
			tmp[y*w+x] = acc
		}
	}
	dst := New(w, h, 0)
	ys := spans(sh, h, fy)
	for y, sp := range ys {
		for x := 0; x < w; x++ {
			var acc float64
			for _, c := range sp {
				acc += tmp[c.i*w+x] * c.w
			}
			dst.Pix[y*dst.Stride+x] = Clamp8(acc)
		}
	}
	return dst
}

type tap struct {
	i int
	w float64
}

// spans lists, for each of n output cells over a source of length src,
// the source indices it covers and their normalised weights.
func spans(src, n int, f float64) [][]tap {
	out := make([][]tap, n)
	for o := range out {
		a, b := float64(o)*f, float64(o+1)*f
		for i := int(a); i < src && float64(i) < b; i++ {
			lo, hi := math.Max(a, float64(i)), math.Min(b, float64(i+1))
			if hi > lo {
				out[o] = append(out[o], tap{i, (hi - lo) / f})
			}
		}
	}
	return out
}

// GaussianKernel is a Gaussian of sigma px, summing to 1, reaching
// ceil(reach·sigma) taps either side of its centre (len(k)/2).
func GaussianKernel[T float32 | float64](sigma, reach float64) []T {
	r := int(math.Ceil(reach * sigma))
	k := make([]float64, 2*r+1)
	var sum float64
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	out := make([]T, len(k))
	for i, v := range k {
		out[i] = T(v / sum)
	}
	return out
}

// GaussianBlur blurs g with standard deviation sigma pixels, separably.
func GaussianBlur(g *image.Gray, sigma float64) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if sigma <= 0 || w == 0 || h == 0 {
		return clone(g)
	}
	k := GaussianKernel[float64](sigma, 3)
	r := len(k) / 2
	tmp := make([]float64, w*h)
	for y := 0; y < h; y++ {
		row := g.Pix[y*g.Stride : y*g.Stride+w]
		for x := 0; x < w; x++ {
			var acc float64
			for i, kv := range k {
				acc += float64(row[clamp(x+i-r, 0, w-1)]) * kv
			}
			tmp[y*w+x] = acc
		}
	}
	dst := New(w, h, 0)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc float64
			for i, kv := range k {
				acc += tmp[clamp(y+i-r, 0, h-1)*w+x] * kv
			}
			dst.Pix[y*dst.Stride+x] = Clamp8(acc)
		}
	}
	return dst
}

func clone(g *image.Gray) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	dst := New(w, h, 0)
	for y := 0; y < h; y++ {
		copy(dst.Pix[y*w:(y+1)*w], g.Pix[y*g.Stride:y*g.Stride+w])
	}
	return dst
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// Clamp8 rounds v to the nearest byte value, saturating.
func Clamp8(v float64) uint8 {
	if v <= 0 || math.IsNaN(v) {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v + 0.5)
}

// Shrink averages f×f blocks: the fast integer case of Resize, for
// working copies. Pixels beyond the last whole block are dropped.
func Shrink(g *image.Gray, f int) *image.Gray {
	if f <= 1 {
		return clone(g)
	}
	w, h := g.Rect.Dx()/f, g.Rect.Dy()/f
	dst := New(w, h, 0)
	acc := make([]int, w)
	n := f * f
	for y := 0; y < h; y++ {
		clear(acc)
		for dy := 0; dy < f; dy++ {
			row := g.Pix[(y*f+dy)*g.Stride:]
			for x := range acc {
				s := 0
				for _, v := range row[x*f : x*f+f] {
					s += int(v)
				}
				acc[x] += s
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w]
		for x, s := range acc {
			out[x] = uint8((s + n/2) / n)
		}
	}
	return dst
}
