package card

import (
	"image"

	"github.com/idgate/idgate/verifier/imgio"
)

// borderSkip keeps measurements off the card's edge, where the table and
// the rounded corners would count as detail.
const borderSkip = 12

// SharpnessOf is imgio.Sharpness inside the border: Card's Sharpness, and
// a passport page's (verifier/engines).
func SharpnessOf(g *image.Gray) float64 { return imgio.Sharpness(g, borderSkip) }

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
