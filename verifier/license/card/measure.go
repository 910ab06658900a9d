package card

import (
	"image"
	"math"
)

// borderSkip keeps measurements off the card's edge, where the table and
// the rounded corners would count as detail.
const borderSkip = 12

// SharpnessOf is the standard deviation of the 4-neighbour Laplacian over
// the standard deviation of the grey levels, inside the border: Card's
// Sharpness, and a passport page's (verifier/engines).
func SharpnessOf(g *image.Gray) float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var n, sumL, sumL2, sumI, sumI2 float64
	for y := borderSkip; y < h-borderSkip; y++ {
		for x := borderSkip; x < w-borderSkip; x++ {
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
		return 0 // a featureless card has no measurable sharpness
	}
	return math.Sqrt(math.Max(varL, 0)) / math.Sqrt(varI)
}

// glareLevel is the luminance from which print counts as washed out.
const glareLevel = 250

// GlareOf is the share of pixels inside the border at or above glareLevel:
// Card's Glare, and a passport page's.
func GlareOf(g *image.Gray) float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var n, hot float64
	for y := borderSkip; y < h-borderSkip; y++ {
		for _, v := range g.Pix[y*g.Stride+borderSkip : y*g.Stride+w-borderSkip] {
			n++
			if v >= glareLevel {
				hot++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return hot / n
}
