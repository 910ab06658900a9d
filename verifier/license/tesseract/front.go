package tesseract

import (
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
)

// cardPPI is the corrected card's resolution: card.Width px over 85.6 mm.
const cardPPI = 254

// ReadFront reads the personal-data zone (card.PersonalDataZone) of an
// upright corrected card (card.Portrait.Upright) and splits it into
// fields by their labels (license.ReadPrinted). words are what Tesseract
// read, for calibration; they hold personal data.
func (r *Reader) ReadFront(upright *image.RGBA) (p license.Printed, words []license.Word, err error) {
	if words, err = r.FrontWords(upright); err != nil {
		return license.Printed{}, nil, err
	}
	return license.ReadPrinted(words), words, nil
}

// FrontWords is what Tesseract reads in the personal-data zone
// (card.PersonalDataZone) of an upright corrected card, in reading order,
// for the caller to split by its own labels (an ID card's front by the
// captions of a visual inspection zone: verifier/mrz.ReadVIZ).
func (r *Reader) FrontWords(upright *image.RGBA) ([]license.Word, error) {
	words, err := r.Words(grey(upright, card.PersonalDataZone(upright.Bounds())), cardPPI)
	if err != nil {
		return nil, fmt.Errorf("read front: %w", err)
	}
	return words, nil
}

// grey is the zone's luminance (BT.601 weights). Tesseract gets the
// zone at the card's own 10 px/mm: reading it scaled up twice changed
// no outcome on the synthetic set (bench/document) and costs more.
func grey(img *image.RGBA, zone image.Rectangle) *image.Gray {
	zone = zone.Intersect(img.Bounds())
	g := image.NewGray(image.Rect(0, 0, zone.Dx(), zone.Dy()))
	for y := 0; y < zone.Dy(); y++ {
		src := img.Pix[img.PixOffset(zone.Min.X, zone.Min.Y+y):]
		dst := g.Pix[y*g.Stride:]
		for x := range zone.Dx() {
			r, gr, b := int(src[4*x]), int(src[4*x+1]), int(src[4*x+2])
			dst[x] = uint8((299*r + 587*gr + 114*b + 500) / 1000)
		}
	}
	return g
}
