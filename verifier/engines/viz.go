package engines

import (
	"fmt"
	"image"
	"math"
	"slices"
	"time"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// The data page's visual inspection zone (Doc 9303 Part 4, zone II): the
// printed personal data right of the portrait (zone V, 32-45 mm wide from
// 5-7 mm in) and above the zone, which starts about 12.5 mm above the
// bottom edge. The part read starts 38 mm in, clear of the portrait, and
// ends 3 mm short of the zone's top, so no OCR-B line is read as a value.
const (
	vizX0, vizY0, vizX1, vizY1 = 38.0, 4.0, td3W - 2, td3H - 16
	// vizRes is the resolution the part is read at, px/mm (at most the
	// photo's): the captions, 1.6 mm type, are then about 12 px high,
	// what Tesseract's LSTM reads reliably; at pageRes (8) it missed
	// captions on the rendered pages.
	vizRes = 12.0
)

// vizOf reads the visual inspection zone of the upright grey photo with
// the worker's Tesseract reader and splits it by its captions
// (mrz.ReadVIZ): PassportReport.Printed. A page whose zone did not place
// it has no zone to read; the comparison itself, and what is too weakly
// read to be a mismatch, is license.CompareFront's.
func (w *worker) vizOf(x *PassportExam, grey *image.Gray) (license.Printed, error) {
	if err := w.textReader(); err != nil {
		return license.Printed{}, fmt.Errorf("passport: %w", err)
	}
	res := math.Min(x.Page.px, vizRes)
	g := raster.Warp(grey, int((vizX1-vizX0)*res), int((vizY1-vizY0)*res), x.Page.toPart(vizX0, vizY0, res), 0)
	words, err := w.text.Words(g, int(math.Round(res*25.4)))
	if err != nil {
		return license.Printed{}, fmt.Errorf("passport: visual zone: %w", err)
	}
	return vizPrinted(words), nil
}

// settleByVIZ reads a zone that read but for some name cells (each one of
// two letters: reader.UnsureNames) with the names the visual zone prints,
// a second reading independent of the zone's (another typeface, larger,
// read by Tesseract): the zone when the names, read at MinVIZConfidence
// or more and spelt as the zone spells them (mrz.NameFields: Doc 9303's
// transliteration, every spelling it allows), agree with the zone's
// reading in every cell of its names field, sure cells and unclear ones,
// and every spelling that agrees gives the same zone; nil otherwise (the
// zone stays unread: never a guess).
func settleByVIZ(names *reader.UnsureNames, p license.Printed) *mrz.MRZ {
	last, first := p.LastName, p.FirstName
	if last.Conf < MinVIZConfidence || first.Text != "" && first.Conf < MinVIZConfidence {
		return nil
	}
	var read *mrz.MRZ
	for _, field := range mrz.NameFields(names.Format, last.Text, first.Text) {
		m, err := names.Settle(field)
		if err != nil {
			continue
		}
		if read != nil && !slices.Equal(read.Lines, m.Lines) {
			return nil
		}
		read = m
	}
	return read
}

// readCardVIZ reads the front of an ID card with a machine-readable zone
// (ICAO 9303 TD1: Doc 9303 Part 5 puts the personal data right of the
// portrait, each field under its caption, as a data page's visual
// inspection zone): the words Tesseract reads where the license front's
// reader reads (the card's personal-data zone, tesseract.FrontWords),
// split by the data page's captions (vizPrinted). A front whose captions
// do not read leaves its fields empty: unreadable, never another field's
// value.
func (w *worker) readCardVIZ(x *FrontExam) error {
	if err := w.textReader(); err != nil {
		return fmt.Errorf("id card front: %w", err)
	}
	start := time.Now()
	words, err := w.text.FrontWords(x.CardPortrait.Upright)
	x.Timings.Text = time.Since(start)
	if err != nil {
		return fmt.Errorf("id card front: %w", err)
	}
	p := vizPrinted(words)
	x.Printed = &p
	return nil
}

// vizPrinted splits the words read in a visual inspection zone by their
// captions (mrz.ReadVIZ) and keeps a document number or name read under
// MinVIZConfidence from accusing.
func vizPrinted(words []license.Word) license.Printed {
	p := mrz.ReadVIZ(words)
	for _, r := range []*license.Read{&p.DocumentNumber, &p.LastName, &p.FirstName} {
		if r.Conf < MinVIZConfidence {
			r.Conf = 0
		}
	}
	return p
}

// MinVIZConfidence is the word confidence under which the document
// number or a name read in the visual zone is not trusted to disagree with
// the zone: its confidence is made 0, so license.CompareFront calls a
// disagreement of another length unreadable (a character confidently read
// as another, in a read of the right length, still is a mismatch). A
// glyph split in two or two merged changes such a field's length and
// nothing else shows it; a date so misread no longer parses as a date
// (CompareFront: unreadable), so the dates keep license.MinConfidence.
// On rendered data pages at 1-12 MP, sharp and blurred (65 pages,
// 2026-11-29, TestPassportVIZ* and a calibration run), Tesseract read one
// genuine document number with its "5" as "S5" at 62.5, over
// license.MinConfidence; every tampered surname came at 96-97, a
// tampered birth date's day at under 80 with its characters at 95-100.
const MinVIZConfidence = 80
