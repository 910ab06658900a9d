// Package reader reads the machine-readable zone from a photo of a
// passport's data page or a card's zone side: it finds the zone (the two or
// three long, dense lines of monospaced text at the bottom of the page),
// straightens it, cuts it into character cells, matches each cell against
// the OCR-B glyphs rendered from the font the standard prescribes
// (verifier/mrz/ocrb), and hands the text to mrz.Parse, whose check digits
// decide. Why our own matcher and not Tesseract: docs/engines.md (the
// measurement, bench/mrz).
package reader

import (
	"errors"
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// ErrNoZone: no two or three lines of zone text were found in the photo.
var ErrNoZone = errors.New("mrz reader: no machine-readable zone found")

// MaxPixels bounds a photo (the image decoder's bound is the same order).
const MaxPixels = 50 << 20

// Reader holds the glyph templates. It is safe for concurrent use: nothing
// in it changes after New.
type Reader struct {
	font   *ocrb.Font
	glyphs *glyphSet
}

// New renders the templates from the OCR-B font.
func New(f *ocrb.Font) (*Reader, error) {
	g, err := newGlyphSet(f)
	if err != nil {
		return nil, err
	}
	return &Reader{font: f, glyphs: g}, nil
}

// Read finds, straightens and reads the zone of img and parses it: the
// zone as mrz.Parse answers it, or ErrNoZone, or mrz's coded errors (a zone
// found but misread: take another photo). Each zone Zones finds is read
// until one parses.
func (r *Reader) Read(img *image.Gray) (*mrz.MRZ, error) {
	var last error = ErrNoZone
	for z, err := range Zones(img, MatchPitch) {
		if err != nil {
			if !errors.Is(last, mrz.ErrFormat) && !errors.Is(last, mrz.ErrCheckDigit) && !errors.Is(last, mrz.ErrAmbiguous) && !errors.Is(last, mrz.ErrField) {
				last = err
			}
			continue
		}
		m, err := mrz.Parse(r.Text(z))
		if err == nil {
			return m, nil
		}
		last = err
	}
	return nil, last
}

// Text reads a located zone with the glyph matcher, one line of text per
// zone line.
func (r *Reader) Text(z *Zone) string {
	var out []byte
	for i, l := range z.Lines {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, r.glyphs.readLine(z.Crop, l)...)
	}
	return string(out)
}

func checkSize(img *image.Gray) error {
	b := img.Bounds()
	if b.Dx() < 64 || b.Dy() < 64 || b.Dx()*b.Dy() > MaxPixels {
		return fmt.Errorf("mrz reader: %dx%d image: %w", b.Dx(), b.Dy(), ErrNoZone)
	}
	return nil
}
