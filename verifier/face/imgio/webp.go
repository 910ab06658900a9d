package imgio

import (
	"image"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// webpToTensor converts a lossy WebP's picture. VP8 stores BT.601
// "studio range" YCbCr (luma 16–235, chroma 16–240), which libwebp and
// browsers expand to full-range RGB; x/image/webp hands back an
// image.YCbCr whose colour model is JPEG's full-range one, so converting
// through it flattens the contrast (measured: mean error 9.7 levels on a
// face against libwebp's dwebp). Chroma is taken from the sample covering
// each pixel, as image.YCbCr does.
func webpToTensor(m *image.YCbCr) *tensor.Tensor {
	b := m.Rect
	w, h := b.Dx(), b.Dy()
	t := tensor.New(1, h, w, 3)
	d := t.Data
	for y := range h {
		for x := range w {
			yi, ci := m.YOffset(b.Min.X+x, b.Min.Y+y), m.COffset(b.Min.X+x, b.Min.Y+y)
			l := 1.164383 * (float32(m.Y[yi]) - 16)
			cb, cr := float32(m.Cb[ci])-128, float32(m.Cr[ci])-128
			i := (y*w + x) * 3
			d[i] = clamp255(l + 1.596027*cr)
			d[i+1] = clamp255(l - 0.391762*cb - 0.812968*cr)
			d[i+2] = clamp255(l + 2.017232*cb)
		}
	}
	return t
}

// clamp255 rounds to a whole level in 0..255, as an 8-bit decoder's
// output would be.
func clamp255(v float32) float32 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return float32(int(v + 0.5))
}
