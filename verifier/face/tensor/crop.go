package tensor

import (
	"fmt"
	"math"
)

// CropAndResize samples the box (y0, x0)–(y1, x1), in coordinates
// normalised to 0..1 over image 0 of the NHWC x, onto an oh×ow grid with
// bilinear interpolation, as TensorFlow's crop_and_resize does: grid
// corners land exactly on the box corners, and samples outside the image
// take the value extrapolate.
func CropAndResize(dst, x *Tensor, y0, x0, y1, x1 float64, oh, ow int, extrapolate float32) error {
	_, h, w, c, err := x.Dims4()
	if err != nil {
		return fmt.Errorf("crop and resize: %w", err)
	}
	if oh < 1 || ow < 1 || h < 1 || w < 1 {
		return fmt.Errorf("crop and resize: %dx%d to %dx%d", h, w, oh, ow)
	}
	for _, v := range [4]float64{y0, x0, y1, x1} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("crop and resize: box (%v, %v)-(%v, %v) is not finite", y0, x0, y1, x1)
		}
	}
	if err := checkSize(oh, ow, c); err != nil {
		return fmt.Errorf("crop and resize: %w", err)
	}
	dst.Resize(1, oh, ow, c)
	img := x.Data[:h*w*c]
	for oy := range oh {
		iy := sample(y0, y1, oy, oh, h)
		for ox := range ow {
			ix := sample(x0, x1, ox, ow, w)
			o := dst.Data[(oy*ow+ox)*c : (oy*ow+ox+1)*c]
			if iy < 0 || iy > float64(h-1) || ix < 0 || ix > float64(w-1) {
				for k := range o {
					o[k] = extrapolate
				}
				continue
			}
			ty, tx := int(math.Floor(iy)), int(math.Floor(ix))
			by, bx := int(math.Ceil(iy)), int(math.Ceil(ix))
			dy, dx := float32(iy-float64(ty)), float32(ix-float64(tx))
			p00, p01 := img[(ty*w+tx)*c:], img[(ty*w+bx)*c:]
			p10, p11 := img[(by*w+tx)*c:], img[(by*w+bx)*c:]
			for k := range o {
				top := p00[k] + (p01[k]-p00[k])*dx
				bot := p10[k] + (p11[k]-p10[k])*dx
				o[k] = top + (bot-top)*dy
			}
		}
	}
	return nil
}

// sample is the source coordinate of output index i of n along an axis of
// length size for the normalised span a..b.
func sample(a, b float64, i, n, size int) float64 {
	if n == 1 {
		return 0.5 * (a + b) * float64(size-1)
	}
	return a*float64(size-1) + float64(i)*(b-a)*float64(size-1)/float64(n-1)
}
