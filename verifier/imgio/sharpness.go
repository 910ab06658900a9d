package imgio

import (
	"image"
	"math"
)

// Sharpness is the standard deviation of the 4-neighbour Laplacian over
// the standard deviation of the grey levels, inside a border of border
// pixels: fine detail against contrast, so a dim or a low-contrast
// picture is not taken for a blurred one. 0 for a picture with no
// contrast (grey variance under 1) or no pixel inside the border. The
// card's and the passport page's sharpness (verifier/license/card) and
// the selfie's (verifier/face/liveness).
func Sharpness(g *image.Gray, border int) float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	border = max(border, 1)
	var n, sumL, sumL2, sumI, sumI2 float64
	for y := border; y < h-border; y++ {
		for x := border; x < w-border; x++ {
			c := float64(g.Pix[y*g.Stride+x])
			l := float64(g.Pix[(y-1)*g.Stride+x]) + float64(g.Pix[(y+1)*g.Stride+x]) +
				float64(g.Pix[y*g.Stride+x-1]) + float64(g.Pix[y*g.Stride+x+1]) - 4*c
			n++
			sumL += l
			sumL2 += l * l
			sumI += c
			sumI2 += c * c
		}
	}
	if n == 0 {
		return 0
	}
	varL := sumL2/n - (sumL/n)*(sumL/n)
	varI := sumI2/n - (sumI/n)*(sumI/n)
	if varI < 1 {
		return 0
	}
	return math.Sqrt(math.Max(varL, 0)) / math.Sqrt(varI)
}
