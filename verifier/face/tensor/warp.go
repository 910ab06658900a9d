package tensor

import (
	"fmt"
	"math"
)

// WarpAffine samples image 0 of the NHWC x onto an oh×ow grid: output pixel
// (u, v) reads source (m[0]·u + m[1]·v + m[2], m[3]·u + m[4]·v + m[5]) with
// bilinear interpolation, and zero where that falls outside the image. It
// cuts rotated, scaled face crops (alignment) in one pass.
func WarpAffine(dst, x *Tensor, m [6]float64, oh, ow int) error {
	_, h, w, c, err := x.Dims4()
	if err != nil {
		return fmt.Errorf("warp affine: %w", err)
	}
	if oh < 1 || ow < 1 || h < 1 || w < 1 {
		return fmt.Errorf("warp affine: %dx%d to %dx%d", h, w, oh, ow)
	}
	for _, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("warp affine: matrix %v is not finite", m)
		}
	}
	if err := checkSize(oh, ow, c); err != nil {
		return fmt.Errorf("warp affine: %w", err)
	}
	dst.Resize(1, oh, ow, c)
	img := x.Data[:h*w*c]
	for v := range oh {
		for u := range ow {
			sx := m[0]*float64(u) + m[1]*float64(v) + m[2]
			sy := m[3]*float64(u) + m[4]*float64(v) + m[5]
			o := dst.Data[(v*ow+u)*c : (v*ow+u+1)*c]
			clear(o)
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := float32(sx-float64(x0)), float32(sy-float64(y0))
			// Each of the four neighbours contributes if inside the image,
			// so the crop fades to zero across the border.
			for _, n := range [4]struct {
				dx, dy int
				wt     float32
			}{{0, 0, (1 - fx) * (1 - fy)}, {1, 0, fx * (1 - fy)}, {0, 1, (1 - fx) * fy}, {1, 1, fx * fy}} {
				xx, yy := x0+n.dx, y0+n.dy
				if xx < 0 || xx >= w || yy < 0 || yy >= h || n.wt == 0 {
					continue
				}
				p := img[(yy*w+xx)*c : (yy*w+xx+1)*c]
				for k := range o {
					o[k] += n.wt * p[k]
				}
			}
		}
	}
	return nil
}
