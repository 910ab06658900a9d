package pdf417

import (
	"image"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// smoothVertical averages each pixel with its neighbours above and below.
// In an upright crop the bars are vertical, so this removes sensor noise
// and JPEG blocking without widening a single bar.
func smoothVertical(g *image.Gray) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := raster.New(w, h, 0)
	const r = 2
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sum, n := 0, 0
			for dy := -r; dy <= r; dy++ {
				if yy := y + dy; yy >= 0 && yy < h {
					sum += int(g.Pix[yy*g.Stride+x])
					n++
				}
			}
			out.Pix[y*out.Stride+x] = uint8((sum + n/2) / n)
		}
	}
	return out
}

// boxMean returns the mean of the (2r+1)² window around each pixel,
// clipped at the borders, from an integral image.
func boxMean(g *image.Gray, r int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	integral := make([]int64, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var rowSum int64
		for x := 0; x < w; x++ {
			rowSum += int64(g.Pix[y*g.Stride+x])
			integral[(y+1)*(w+1)+x+1] = integral[y*(w+1)+x+1] + rowSum
		}
	}
	out := raster.New(w, h, 0)
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-r), min(h, y+r+1)
		for x := 0; x < w; x++ {
			x0, x1 := max(0, x-r), min(w, x+r+1)
			sum := integral[y1*(w+1)+x1] - integral[y0*(w+1)+x1] - integral[y1*(w+1)+x0] + integral[y0*(w+1)+x0]
			n := int64((y1 - y0) * (x1 - x0))
			out.Pix[y*out.Stride+x] = uint8((sum + n/2) / n)
		}
	}
	return out
}

// adaptiveThreshold binarises against the mean of a window a few modules
// wide, which flattens uneven light and shadows across the symbol.
func adaptiveThreshold(g *image.Gray) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	mean := boxMean(g, max(8, min(w, h)/8))
	out := raster.New(w, h, 0)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if g.Pix[y*g.Stride+x] >= mean.Pix[y*mean.Stride+x] {
				out.Pix[y*out.Stride+x] = 0xff
			}
		}
	}
	return out
}

// sharpen is an unsharp mask: it restores some edge contrast lost to
// defocus, at the price of amplifying noise, so it runs after the plain
// and smoothed variants have failed. The crops it gets are upscaled 2×, so
// σ = 2 px is about half a module of a 2 px symbol; a box window instead,
// though twice as fast, rescued fewer blurred photos.
func sharpen(g *image.Gray) *image.Gray {
	blur := raster.GaussianBlur(g, 2)
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := raster.New(w, h, 0)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := float64(g.Pix[y*g.Stride+x])
			out.Pix[y*out.Stride+x] = raster.Clamp8(p + 1.5*(p-float64(blur.Pix[y*blur.Stride+x])))
		}
	}
	return out
}
