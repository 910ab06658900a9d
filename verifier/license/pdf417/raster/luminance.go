package raster

import (
	"image"
	"image/color"
)

// Luminance returns the luminance of img as an *image.Gray with bounds
// starting at the origin. Camera JPEGs decode to YCbCr, whose Y plane is
// the luminance already, so that path is a copy.
func Luminance(img image.Image) *image.Gray {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	switch src := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			i := src.PixOffset(b.Min.X, b.Min.Y+y)
			copy(out.Pix[y*w:(y+1)*w], src.Pix[i:i+w])
		}
	case *image.YCbCr:
		for y := 0; y < h; y++ {
			i := src.YOffset(b.Min.X, b.Min.Y+y)
			copy(out.Pix[y*w:(y+1)*w], src.Y[i:i+w])
		}
	case *image.NRGBA:
		rgbToGray(out, src.Pix, src.Stride, src.PixOffset(b.Min.X, b.Min.Y))
	case *image.RGBA:
		rgbToGray(out, src.Pix, src.Stride, src.PixOffset(b.Min.X, b.Min.Y))
	default:
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out.Pix[y*w+x] = color.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
			}
		}
	}
	return out
}

// rgbToGray converts 4-byte RGB(A) pixels with the same weights as
// color.GrayModel, ignoring alpha: an ID photo has none that matters.
func rgbToGray(out *image.Gray, pix []byte, stride, start int) {
	w, h := out.Rect.Dx(), out.Rect.Dy()
	for y := 0; y < h; y++ {
		row := pix[start+y*stride : start+y*stride+4*w]
		dst := out.Pix[y*w : (y+1)*w]
		for x := range dst {
			r, g, b := uint32(row[4*x]), uint32(row[4*x+1]), uint32(row[4*x+2])
			dst[x] = uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 16)
		}
	}
}
