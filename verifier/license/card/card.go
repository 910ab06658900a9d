// Package card finds a driver's license (an ID-1 card) in a photo of its
// front, corrects its perspective to an upright image, and measures what
// the license_appears_real verdict needs from the card itself: its
// proportions against ID-1, its sharpness and its glare.
package card

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Errors callers branch on.
var (
	// ErrNoCard means no card-like quadrilateral stands out in the photo.
	ErrNoCard = errors.New("card: no card found")
	// ErrCardTooSmall means a card was found but covers too little of the
	// photo to read: the shopper should move closer.
	ErrCardTooSmall = errors.New("card: card too small in the photo")
	// ErrTooBlurred means the corrected card is below MinSharpness.
	ErrTooBlurred = errors.New("card: card too blurred")
	// ErrImageTooLarge means the photo has more than MaxPixels pixels.
	ErrImageTooLarge = errors.New("card: image too large")
)

const (
	// ID1Aspect is the ID-1 format's width over height: 85.60 × 53.98 mm.
	ID1Aspect = 85.60 / 53.98
	// AspectTolerance is how far the measured aspect ratio may stray from
	// ID1Aspect, relative (±10%): a hand-held photo with up to about 20°
	// of tilt stays within it, a card of another format does not (a
	// credit-card-sized ID-1 passes; an ID-2 or a square badge fails).
	AspectTolerance = 0.10
	// MinCoverage is the least share of the photo's area the card must
	// cover, and MinCardWidth the least length of its long side in photo
	// pixels: below either the print is too small to analyse.
	MinCoverage  = 0.10
	MinCardWidth = 400
	// MinSharpness is the least Sharpness of a usable card; see Sharpness.
	// On the synthetic cards of the tests a sharp card measures 0.4-0.5 and
	// the limit falls at a defocus blur of about σ = 2.5 px on the
	// corrected card (0.25 mm).
	MinSharpness = 0.045
	// MaxPixels bounds the photo, as for the barcode side.
	MaxPixels = 40_000_000
	// Width and Height of the corrected card: ID-1 at 10 px/mm.
	Width, Height = 856, 540
)

// Card is a card found in a photo.
type Card struct {
	// Corners are the card's corners in the photo, in the order of the
	// corrected image's top-left, top-right, bottom-right, bottom-left.
	// The long side is horizontal in Image; whether the card is upside
	// down is not decided here (the face or text engines can tell).
	Corners [4]image.Point
	// Image is the card, perspective-corrected, Width × Height.
	Image *image.RGBA
	// Aspect is the measured long-side over short-side ratio in the photo,
	// averaged over opposite sides; AspectOK says it is within
	// AspectTolerance of ID1Aspect.
	Aspect   float64
	AspectOK bool
	// Coverage is the card's share of the photo's area.
	Coverage float64
	// Sharpness is the standard deviation of the Laplacian over the
	// standard deviation of the grey levels on the corrected card: edge
	// strength relative to contrast, so light and exposure cancel out.
	Sharpness float64
	// Glare is the share of the card's pixels at or near saturation
	// (luminance ≥ 250), where print is washed out.
	Glare float64
}

// AnalyzeFront finds the card in img and measures it.
func AnalyzeFront(img image.Image) (Card, error) {
	if img == nil {
		return Card{}, fmt.Errorf("analyze front: %w: no image", ErrNoCard)
	}
	b := img.Bounds()
	if int64(b.Dx())*int64(b.Dy()) > MaxPixels {
		return Card{}, fmt.Errorf("analyze front: %dx%d: %w (max %d pixels)", b.Dx(), b.Dy(), ErrImageTooLarge, MaxPixels)
	}
	// The outline is searched on a small colour copy; colour is sampled
	// from img again for the corrected card alone, so a 12 MP photo is
	// never copied in RGBA.
	quad, err := findQuad(img)
	if err != nil {
		return Card{}, fmt.Errorf("analyze front: %w", err)
	}
	c := Card{Corners: roundQuad(quad)}
	top, bottom := dist(quad[0], quad[1]), dist(quad[3], quad[2])
	left, right := dist(quad[0], quad[3]), dist(quad[1], quad[2])
	c.Aspect = (top + bottom) / (left + right)
	c.AspectOK = math.Abs(c.Aspect/ID1Aspect-1) <= AspectTolerance
	c.Coverage = polygonArea(quad[:]) / float64(b.Dx()*b.Dy())
	if err := tooSmall(quad, b); err != nil {
		if !c.AspectOK {
			// A small outline of other proportions is, on bench/robust,
			// print inside a near card (its portrait's frame) taken for
			// a card: "move closer" would be wrong advice, and a far
			// license shows ID-1's proportions.
			return c, fmt.Errorf("analyze front: %w: a small outline (%.0f%% of the photo) of aspect %.2f", ErrUnsureOutline, 100*c.Coverage, c.Aspect)
		}
		return c, fmt.Errorf("analyze front: %w", err)
	}
	toPhoto, err := raster.FromQuad([4]raster.Point{{X: 0, Y: 0}, {X: Width, Y: 0}, {X: Width, Y: Height}, {X: 0, Y: Height}}, quad)
	if err != nil {
		return c, fmt.Errorf("analyze front: %w: %w", ErrNoCard, err)
	}
	c.Image = warpColor(img, Width, Height, toPhoto)
	cardGray := raster.Luminance(c.Image)
	c.Sharpness = SharpnessOf(cardGray)
	c.Glare = GlareOf(cardGray)
	if c.Sharpness < MinSharpness {
		return c, fmt.Errorf("analyze front: sharpness %.3f below %.3f: %w", c.Sharpness, MinSharpness, ErrTooBlurred)
	}
	return c, nil
}

// tooSmall returns ErrCardTooSmall, with the card's size, when the card
// with corners quad (top-left, top-right, bottom-right, bottom-left, long
// side on top) covers less than MinCoverage of the photo b or its long
// side is shorter than MinCardWidth.
func tooSmall(quad [4]raster.Point, b image.Rectangle) error {
	coverage := polygonArea(quad[:]) / float64(b.Dx()*b.Dy())
	width := math.Max(dist(quad[0], quad[1]), dist(quad[3], quad[2]))
	if coverage < MinCoverage || width < MinCardWidth {
		return fmt.Errorf("card covers %.0f%% of the photo, %.0f px wide: %w", 100*coverage, width, ErrCardTooSmall)
	}
	return nil
}

// dist is the distance of two points: a square root, not math.Hypot,
// whose guard against overflow photo coordinates never need (the
// candidates measure every outline's sides: quadAspect alone was 3% of the
// finder's time, bench/robust's profile).
func dist(a, b raster.Point) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return math.Sqrt(dx*dx + dy*dy)
}

func roundQuad(q [4]raster.Point) [4]image.Point {
	var out [4]image.Point
	for i, p := range q {
		out[i] = image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
	}
	return out
}

// polygonArea is the shoelace formula.
func polygonArea(p []raster.Point) float64 {
	var a float64
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return math.Abs(a) / 2
}
