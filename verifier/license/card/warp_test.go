package card

import (
	"image"
	"image/color"
	"testing"
)

// pixelAt reads every decoded type exactly as At does.
func TestPixelAtMatchesAt(t *testing.T) {
	r := image.Rect(2, 3, 21, 14)
	ycc := image.NewYCbCr(r, image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = uint8(i * 7)
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = uint8(i*13), uint8(255-i*5)
	}
	rgba, nrgba, gray := image.NewRGBA(r), image.NewNRGBA(r), image.NewGray(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			rgba.Set(x, y, color.RGBA{uint8(x * 9), uint8(y * 11), uint8(x + y), 255})
			nrgba.Set(x, y, color.NRGBA{uint8(x * 9), uint8(y * 11), uint8(x + y), uint8(x * y)})
			gray.Set(x, y, color.Gray{uint8(x * y * 3)})
		}
	}
	for _, img := range []image.Image{ycc, rgba, nrgba, gray, ycc.SubImage(image.Rect(5, 5, 9, 9))} {
		at := pixelAt(img)
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r1, g1, b1, a1 := at(x, y)
				r2, g2, b2, a2 := img.At(x, y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
					t.Fatalf("%T at %d,%d: %d %d %d %d, want %d %d %d %d", img, x, y, r1, g1, b1, a1, r2, g2, b2, a2)
				}
			}
		}
	}
}
