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
	"iter"
	"math"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// ErrNoZone: no two or three lines of zone text were found in the photo.
var ErrNoZone = errors.New("mrz reader: no machine-readable zone found")

// ErrUnsure: the zone was read, but some character matched another glyph
// nearly as well (blur, glare) where no check digit can settle it (names,
// nationality and sex carry none; guess.go: what one may settle), so such a
// reading is not trusted. Take another photo.
var ErrUnsure = errors.New("a character is unclear")

// ErrTooBlurred: the zone's print is blurred past what tells its
// characters apart (fineBlurLimit); a sharper photo, or one taken closer,
// may read. It is an ErrUnsure.
var ErrTooBlurred = fmt.Errorf("the zone is too blurred to read: %w", ErrUnsure)

// MinMargin is the least margin every cell of a zone must read with.
// Calibrated on 60 rendered photos (mrztest, 3 MP, the page 25-90% of the
// frame, blur up to 3.75 px, 4,632 cells; docs/engines.md): the 5 cells
// read as another character (G as Q, H as M, 8 as S, under blur) stood
// 0.001-0.007 above the right one; of the cells read right, 0.1% stood
// under 0.012, the lowest at 0.004. So 0.01 refuses every misread seen at
// the cost of a retake for a few blurred zones.
const MinMargin = 0.01

// MinBlindMargin is the least margin a cell must stand above every
// character of the same check-digit value (cellRead.blind: the filler, 0,
// A, K and U, say, all count 0), which no check digit can tell apart. On
// the real pictures (testdata/mrz, 1,590 cells of the 18 zones read right)
// the lowest such margin was 0.023, the next 0.043; the one real misread
// that passed its check digits, a filler read as K in a Czech specimen's
// personal number, stood 0.013 above the filler. So 0.02. bench/mrz's 300
// rendered photos read the same with it (294 right, 6 refused, 0 wrong).
const MinBlindMargin = 0.02

// MinBlurredMargin is MinMargin for a zone whose cells match best the
// templates blurred by blurredSigma or more (Reader.pick): defocused past
// about 0.75-1 stroke, with the sensor's own blur. There MinMargin
// separates nothing: on every zone the reader tried on bench/mrz's photos
// of the two small stroke bands (strokes 1-2.5 px; 2, 5, 8 MP and 15 at 12
// MP), scored against the printed text, 21 zones at those levels held a
// name cell (no check digit) read as another letter 0.0115-0.036 above the
// right one (0.0128 in a zone with no other wrong cell, whose weakest right
// cell stood at 0.006: refused by 0.004), while the 22 zones read right
// there had their weakest name cell at 0.010-0.024. At the sharper levels
// no name cell was read wrong. So 0.04, over the 0.036: in effect such a
// zone is refused (docs/engines.md).
const MinBlurredMargin = 0.04

// blurredSigma: the template blur, grid px, from which MinBlurredMargin
// holds. 2.5 until bench/mrz -margins scored the zones of another set
// (seed 2, the two small stroke bands, 272 photos): of 149 zones matched
// at 2.1, 4 held a name cell read as another letter over MinMargin, the
// worst 0.037 above the right one. So 2.1: such zones are read the fine
// way (fine.go), which read none of the 712 zones at its sharper blurs
// wrong.
const blurredSigma = 2.1

// MaxPixels bounds a photo (the image decoder's bound is the same order).
const MaxPixels = 50 << 20

// Reader holds the glyph templates. It is safe for concurrent use: nothing
// in it changes after New.
type Reader struct {
	font   *ocrb.Font
	glyphs []*glyphSet // one per blurLevels
	fine   *fineTemplates
}

// New renders the templates from the OCR-B font, at every blur level.
func New(f *ocrb.Font) (*Reader, error) {
	r := &Reader{font: f, fine: newFineTemplates(f)}
	for _, b := range blurLevels {
		g, err := newGlyphSet(f, b)
		if err != nil {
			return nil, err
		}
		r.glyphs = append(r.glyphs, g)
	}
	return r, nil
}

// Read finds, straightens and reads the zone of img and parses it: the
// zone as mrz.Parse answers it, or ErrNoZone, ErrUnsure, or mrz's coded
// errors (a zone found but misread: take another photo). Each zone Zones finds is read
// until one parses.
func (r *Reader) Read(img *image.Gray) (*mrz.MRZ, error) {
	m, _, err := r.ReadZone(img)
	return m, err
}

// ReadZone is Read that also answers the zone: the one read, or when none
// read, the first found (nil when none was): where the zone lies tells
// where the page is. When none read and one was too blurred to read, the
// error is ErrTooBlurred: what a retake must mend.
func (r *Reader) ReadZone(img *image.Gray) (*mrz.MRZ, *Zone, error) {
	return r.readZones(Zones(img, MatchPitch))
}

// ReadUpsideDown reads the zone z, found in a photo by ReadZone and not
// read there, in turned: that photo turned 180°. The zone is cut from
// where z's search put it, turned, and straightened and read as a search
// of turned would: the reader finds a zone's lines upside down as well as
// upright, so it is the same zone, and searching the whole photo again
// (every working copy, with both inks) would cost the time of the first
// search to find it. The answers are ReadZone's, the zone's place in
// turned.
func (r *Reader) ReadUpsideDown(turned *image.Gray, z *Zone) (*mrz.MRZ, *Zone, error) {
	if err := checkSize(turned); err != nil {
		return nil, nil, err
	}
	c := z.found
	c.cx, c.cy = float64(turned.Rect.Dx()-1)-c.cx, float64(turned.Rect.Dy()-1)-c.cy
	return r.readZones(func(yield func(*Zone, error) bool) {
		z, err := straighten(atOrigin(turned), c, MatchPitch, z.ink)
		yieldWithAlternatives(z, err, yield)
	})
}

// readZones reads each zone in turn until one parses (ReadZone).
//
// A zone the fine reading left unsure only in names (UnsureNames) does
// not change what is answered: the first such is wrapped around the
// error, for a second reading of the names to settle.
func (r *Reader) readZones(zones iter.Seq2[*Zone, error]) (*mrz.MRZ, *Zone, error) {
	var last, blurred error = ErrNoZone, nil
	var first *Zone
	var names *UnsureNames
	for z, err := range zones {
		if err != nil {
			if errors.Is(last, ErrNoZone) {
				last = err
			}
			continue
		}
		if first == nil {
			first = z
		}
		g, cells := r.read(z)
		ink := r.inkRatios(z, cells)
		m, err := parseCells(g.chars, cells, ink, g.minMargin(), MinBlindMargin, false)
		if err == nil {
			return m, z, nil
		}
		// Unsure, or misread: read again at the photo's own pixels.
		fine, blur := r.fineRead(z, cells, fineBlurLimit)
		if fine == nil {
			blurred = fmt.Errorf("mrz reader: print blurred by σ %.2f pitch (limit %.2f): %w", blur, fineBlurLimit, ErrTooBlurred)
			continue
		}
		min, blind := fineMargins(blur)
		ink = r.inkRatios(z, fine)
		if m, err = parseCells(ocrbChars, fine, ink, min, blind, true); err == nil {
			return m, z, nil
		}
		last = err
		if u, ok := err.(*UnsureNames); ok {
			last = u.err
			if names == nil {
				u.Zone, names = z, u
			}
		}
	}
	if blurred != nil {
		last = blurred
	}
	if names != nil {
		names.err = last
		return nil, first, names
	}
	return nil, first, last
}

// read matches every cell of a located zone with the glyph matcher
// (readLine), line by line. The templates are the blur level's that every
// fourth cell matches best on average (pick): the level nearest the zone's
// own blur.
func (r *Reader) read(z *Zone) (g *glyphSet, cells [][]cellRead) {
	g = r.pick(z)
	for _, l := range z.Lines {
		cells = append(cells, g.readLine(z.Crop, l))
	}
	return g, cells
}

// minMargin is the least margin every cell must read with when matched
// against g: MinBlurredMargin at blurredSigma and over, else MinMargin.
func (g *glyphSet) minMargin() float64 {
	if g.blur >= blurredSigma {
		return MinBlurredMargin
	}
	return MinMargin
}

// pick is the template set, of every blur level's, that a sample of the
// zone's cells (every fourth) matches best on average. Measured on four
// 2 MP photos of bench/mrz, CPU per page: 88 ms median with the sharp
// templates alone, 132 ms with the sample, 318 ms reading the whole zone at
// every level.
func (r *Reader) pick(z *Zone) *glyphSet {
	best, bestScore := r.glyphs[0], math.Inf(-1)
	for _, g := range r.glyphs {
		sum := 0.0
		for _, l := range z.Lines {
			for c := 0; c < l.Chars; c += 4 {
				sum += g.match(z.Crop, l, c).score
			}
		}
		if sum > bestScore {
			best, bestScore = g, sum
		}
	}
	return best
}

func checkSize(img *image.Gray) error {
	b := img.Bounds()
	if b.Dx() < 64 || b.Dy() < 64 || b.Dx()*b.Dy() > MaxPixels {
		return fmt.Errorf("mrz reader: %dx%d image: %w", b.Dx(), b.Dy(), ErrNoZone)
	}
	return nil
}
