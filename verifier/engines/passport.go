package engines

import (
	"context"
	"fmt"
	"image"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// Passport judges a photo of a passport's data page (ICAO 9303 TD3): it
// reads the machine-readable zone (verifier/mrz/reader: found, straightened,
// matched against OCR-B, every check digit held by verifier/mrz), places
// the page around the zone and finds its edges (zoneside.go, page.go), and
// finds the
// portrait on the page's left part through the face engine, as the
// license front does. A zone that does not read is never guessed:
// mrz_unreadable asks for another photo. A zone that reads but for some
// name cells, each one of two letters, is read with the names the page's
// visual zone prints when they agree with it in every cell (viz.go's
// settleByVIZ).
func (e *Engines) Passport(ctx context.Context, data []byte) (flow.PassportReport, error) {
	x, err := e.examinePassport(ctx, data, false)
	return x.PassportReport, err
}

// PassportPrinted is Passport that also reads the page's visual inspection
// zone (viz.go): PassportReport.Printed, for front_barcode_match.
func (e *Engines) PassportPrinted(ctx context.Context, data []byte) (flow.PassportReport, error) {
	x, err := e.examinePassport(ctx, data, true)
	return x.PassportReport, err
}

// PassportExam is Passport's report with what it was decided from, for
// tests and calibration.
type PassportExam struct {
	flow.PassportReport
	ZoneExam
}

// ExaminePassport is PassportPrinted with everything it measured.
func (e *Engines) ExaminePassport(ctx context.Context, data []byte) (PassportExam, error) {
	return e.examinePassport(ctx, data, true)
}

func (e *Engines) examinePassport(ctx context.Context, data []byte, readText bool) (PassportExam, error) {
	rd, err := e.mrzReader()
	if err != nil {
		return PassportExam{}, fmt.Errorf("passport: %w", err)
	}
	var x PassportExam
	err = e.run(ctx, func(w *worker) error {
		// The visual zone, when the zone's unclear names had it read.
		var printed *license.Printed
		settle := func(grey *image.Gray, names *reader.UnsureNames) (*mrz.MRZ, error) {
			start := time.Now()
			defer func() { x.Timings.Text = time.Since(start) }()
			p, err := w.vizOf(&x, grey)
			if err != nil {
				return nil, err
			}
			printed = &p
			return settleByVIZ(names, p), nil
		}
		s, err := x.examine(ctx, rd, data, &td3Page, e.cfg.Now(), settle)
		if err != nil {
			return fmt.Errorf("passport: %w", err)
		}
		x.PassportReport = flow.PassportReport{Problems: s.Problems, PageFound: s.Found, ProportionsOK: s.ProportionsOK,
			ZoneInPlace: s.ZoneInPlace, Aspect: s.Aspect, Sharpness: s.Sharpness, Glare: s.Glare, Document: s.Document}
		if !s.placed() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("passport: %w", err)
		}
		start := time.Now()
		err = w.pagePortrait(&x, s.img, s.toPhoto)
		x.Timings.Portrait = time.Since(start)
		if err != nil || !readText || s.Document == nil {
			return err
		}
		if printed != nil {
			x.Printed = printed
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("passport: %w", err)
		}
		start = time.Now()
		defer func() { x.Timings.Text = time.Since(start) }()
		p, err := w.vizOf(&x, s.grey)
		x.Printed = &p
		return err
	})
	return x, err
}

// pagePortrait finds the portrait on the page's left part (the format puts
// it there, above the zone: Doc 9303 Part 4, zone V), in colour, through
// the face engine as the front does. The zone has already turned the page
// upright, so unlike the license front (card.FindPortrait, four turns)
// one search does: the largest face by size × score, as FindPortrait
// weighs them, of at least card.MinPortraitFace of the part's short side
// (8 mm: a printed portrait's face is 15-25 mm, a ghost image's or the
// guilloche's faces smaller).
func (w *worker) pagePortrait(x *PassportExam, photo image.Image, toPhoto raster.Homography) error {
	left := x.Page.warpColor(photo, toPhoto, 0, 0, portraitW, portraitH)
	faces, err := w.finder.FindFaces(left)
	if err != nil {
		return fmt.Errorf("passport: portrait: %w", err)
	}
	var best *card.Face
	for i, fc := range faces {
		if best == nil || fc.Size*float64(fc.Score) > best.Size*float64(best.Score) {
			best = &faces[i]
		}
	}
	if best == nil || best.Size < card.MinPortraitFace*float64(min(left.Rect.Dx(), left.Rect.Dy())) {
		x.Problems = append(x.Problems, flow.ProblemNoPortrait)
		return nil
	}
	p := card.Portrait{Face: *best, Upright: left}
	x.FacePresent = true
	if fc, ok := w.finder.Face(p.Upright, p.Face); ok {
		x.Portrait = fc.Descriptor[:]
	}
	if x.Headshot, err = card.Headshot(p); err != nil {
		return fmt.Errorf("passport: %w", err)
	}
	return nil
}
