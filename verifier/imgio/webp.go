package imgio

import (
	"image"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// VP8 (lossy WebP) stores BT.601 "studio range" YCbCr (luma 16–235,
// chroma 16–240), which libwebp and browsers expand to full-range RGB;
// x/image/webp hands back an image.YCbCr whose colour model is JPEG's
// full-range one, so converting through it flattens the contrast
// (measured: mean error 9.7 levels on a face against libwebp's dwebp).
// Chroma is taken from the sample covering each pixel, as image.YCbCr
// does.

// webpToTensor converts a lossy WebP's picture to a tensor.
func webpToTensor(m *image.YCbCr) *tensor.Tensor {
	b := m.Rect
	w, h := b.Dx(), b.Dy()
	t := tensor.New(1, h, w, 3)
	for y := range h {
		for x := range w {
			i := (y*w + x) * 3
			t.Data[i], t.Data[i+1], t.Data[i+2] = studioRGB(m, b.Min.X+x, b.Min.Y+y)
		}
	}
	return t
}

// webpToRGBA converts a lossy WebP's picture to an opaque RGBA image.
func webpToRGBA(m *image.YCbCr) *image.RGBA {
	b := m.Rect
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			r, g, bl := studioRGB(m, b.Min.X+x, b.Min.Y+y)
			p := out.Pix[out.PixOffset(x, y):]
			p[0], p[1], p[2], p[3] = uint8(r), uint8(g), uint8(bl), 255
		}
	}
	return out
}

// studioRGB is the full-range RGB of studio-range pixel (x, y), each a
// whole level in 0..255.
func studioRGB(m *image.YCbCr, x, y int) (r, g, b float32) {
	yi, ci := m.YOffset(x, y), m.COffset(x, y)
	l := 1.164383 * (float32(m.Y[yi]) - 16)
	cb, cr := float32(m.Cb[ci])-128, float32(m.Cr[ci])-128
	return clamp255(l + 1.596027*cr), clamp255(l - 0.391762*cb - 0.812968*cr), clamp255(l + 2.017232*cb)
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
