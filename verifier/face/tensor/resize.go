package tensor

import "fmt"

// ResizeBilinear resizes the NHWC image x to oh×ow the way TensorFlow's
// resize_bilinear does with align_corners=false and half_pixel_centers=false
// (the TF.js default the reference models were run with): source position =
// destination index × in/out, neighbours clamped at the far edge.
func ResizeBilinear(dst, x *Tensor, oh, ow int) error {
	n, h, w, c, err := x.Dims4()
	if err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	if oh < 1 || ow < 1 || h < 1 || w < 1 {
		return fmt.Errorf("resize: %dx%d to %dx%d", h, w, oh, ow)
	}
	if err := checkSize(n, oh, ow, c); err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	dst.Resize(n, oh, ow, c)
	sy, sx := float32(h)/float32(oh), float32(w)/float32(ow)
	for b := range n {
		img := x.Data[b*h*w*c : (b+1)*h*w*c]
		for oy := range oh {
			fy := float32(oy) * sy
			y0 := min(int(fy), h-1)
			y1 := min(y0+1, h-1)
			dy := fy - float32(y0)
			for ox := range ow {
				fx := float32(ox) * sx
				x0 := min(int(fx), w-1)
				x1 := min(x0+1, w-1)
				dx := fx - float32(x0)
				o := dst.Data[((b*oh+oy)*ow+ox)*c : ((b*oh+oy)*ow+ox+1)*c]
				p00, p01 := img[(y0*w+x0)*c:], img[(y0*w+x1)*c:]
				p10, p11 := img[(y1*w+x0)*c:], img[(y1*w+x1)*c:]
				for k := range o {
					top := p00[k] + (p01[k]-p00[k])*dx
					bot := p10[k] + (p11[k]-p10[k])*dx
					o[k] = top + (bot-top)*dy
				}
			}
		}
	}
	return nil
}
