package raster

import (
	"image"
	"image/color"
	"testing"
)

// Every fast path must agree with color.GrayModel, on sub-images too.
func TestLuminanceMatchesGrayModel(t *testing.T) {
	r := image.Rect(0, 0, 23, 17)
	rgba, nrgba := image.NewRGBA(r), image.NewNRGBA(r)
	ycc := image.NewYCbCr(r, image.YCbCrSubsampleRatio420)
	// Neutral chroma: the Y plane is then the luminance GrayModel computes.
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = 128, 128
	}
	gray := image.NewGray(r)
	pal := image.NewPaletted(r, color.Palette{color.Black, color.White, color.RGBA{200, 30, 90, 255}})
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			c := color.RGBA{uint8(x * 11), uint8(y * 13), uint8(x*y + 7), 255}
			rgba.Set(x, y, c)
			nrgba.Set(x, y, c)
			gray.Set(x, y, c)
			pal.Set(x, y, c)
			ycc.Y[ycc.YOffset(x, y)] = uint8(x*y + 3)
		}
	}
	sub := image.Rect(3, 2, 20, 15)
	for name, img := range map[string]image.Image{
		"rgba": rgba.SubImage(sub), "nrgba": nrgba.SubImage(sub), "ycbcr": ycc.SubImage(sub),
		"gray": gray.SubImage(sub), "paletted": pal.SubImage(sub),
	} {
		g := Luminance(img)
		if g.Rect != image.Rect(0, 0, sub.Dx(), sub.Dy()) {
			t.Fatalf("%s: bounds %v", name, g.Rect)
		}
		for y := 0; y < sub.Dy(); y++ {
			for x := 0; x < sub.Dx(); x++ {
				want := color.GrayModel.Convert(img.At(sub.Min.X+x, sub.Min.Y+y)).(color.Gray).Y
				if got := g.GrayAt(x, y).Y; absDiff(got, want) > 1 {
					t.Fatalf("%s (%d,%d): got %d, want %d", name, x, y, got, want)
				}
			}
		}
	}
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}
