package engines

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/tesseract"
)

// MaxGlare is the largest share of the corrected card that may be washed
// out (card.Card.Glare: luminance ≥ 250) before the photo is refused with
// glare. A clean synthetic card measures 0.000 and the tests' hotspot (a
// reflection about a ninth of the card wide) 0.11; 5% is a disc of about
// 150 px, 15 mm of card, enough to hide a portrait's eyes or a date.
// Blur has no number of its own here: card.MinSharpness decides it
// (card.ErrTooBlurred).
const MaxGlare = 0.05

// Front judges a photo of the license front: the card (edges, size,
// sharpness, proportions, glare) and its portrait, which it crops (the
// license_photo) and describes for the face match.
func (e *Engines) Front(ctx context.Context, data []byte) (flow.FrontReport, error) {
	x, err := e.examineFront(ctx, data, nil)
	return x.FrontReport, err
}

// FrontPrinted is Front that also reads the printed personal-data zone of
// the card, turned upright by the portrait's orientation, with Tesseract
// (license/tesseract): FrontReport.Printed, for front_barcode_match.
func (e *Engines) FrontPrinted(ctx context.Context, data []byte) (flow.FrontReport, error) {
	x, err := e.examineFront(ctx, data, (*worker).readText)
	return x.FrontReport, err
}

// IDCardFrontPrinted is Front that also reads the printed zone of an ID
// card's front (ICAO 9303 TD1), whose fields stand under captions as on a
// passport's data page (readCardVIZ): FrontReport.Printed, compared with
// the back's machine-readable zone for front_barcode_match.
func (e *Engines) IDCardFrontPrinted(ctx context.Context, data []byte) (flow.FrontReport, error) {
	x, err := e.examineFront(ctx, data, (*worker).readCardVIZ)
	return x.FrontReport, err
}

// FrontExam is Front's report with what it was decided from: the photo's
// size, the card, the portrait and the time each step took. The flow needs
// only the report; the CLI prints the rest.
type FrontExam struct {
	flow.FrontReport
	// Width and Height of the photo, upright.
	Width, Height int
	// Card and CardErr are card.AnalyzeFront's results.
	Card    card.Card
	CardErr error
	// CardPortrait is the portrait found on the card; nil when none was.
	CardPortrait *card.Portrait
	Timings      FrontTimings
}

// FrontTimings is the wall time of each step of a front examination.
type FrontTimings struct {
	Decode, Card, Portrait, Headshot, Text time.Duration
}

// ExamineFront is Front with everything it measured.
func (e *Engines) ExamineFront(ctx context.Context, data []byte) (FrontExam, error) {
	return e.examineFront(ctx, data, nil)
}

// examineFront judges the card and its portrait, then, when the card has
// one and readText is given, reads its printed fields with it.
func (e *Engines) examineFront(ctx context.Context, data []byte, readText func(*worker, *FrontExam) error) (FrontExam, error) {
	var x FrontExam
	err := e.run(ctx, func(w *worker) error {
		var err error
		x, err = ExamineCard(data)
		if err != nil || x.Card.Image == nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("front: %w", err)
		}
		if err := w.portrait(&x); err != nil || readText == nil || x.CardPortrait == nil {
			return err
		}
		return readText(w, &x)
	})
	return x, err
}

// readText reads the upright card's printed fields. The reader is made on
// the worker's first front_barcode_match (loading the model takes about
// 0.3 s of CPU and 15–20 MB of C memory, outside the Go heap MemoryLimit
// governs), so engines that never read text never hold it.
func (w *worker) readText(x *FrontExam) error {
	if err := w.textReader(); err != nil {
		return fmt.Errorf("front: %w", err)
	}
	start := time.Now()
	p, _, err := w.text.ReadFront(x.CardPortrait.Upright)
	x.Timings.Text = time.Since(start)
	if err != nil {
		return fmt.Errorf("front: %w", err)
	}
	x.Printed = &p
	return nil
}

// textReader makes the worker's Tesseract reader on first use.
func (w *worker) textReader() error {
	if w.text != nil {
		return nil
	}
	r, err := tesseract.New("")
	if err != nil {
		return err
	}
	w.text = r
	return nil
}

// ExamineCard is the first half of ExamineFront, which needs no face
// models: it decodes the photo and judges the card alone.
func ExamineCard(data []byte) (FrontExam, error) {
	var x FrontExam
	start := time.Now()
	img, err := imgio.DecodeImage(data, imgio.Upload)
	x.Timings.Decode = time.Since(start)
	if p, ok := imageProblem(err); ok {
		x.Problems = []flow.Problem{p}
		return x, nil
	} else if err != nil {
		return x, fmt.Errorf("front: %w", err)
	}
	x.Width, x.Height = img.Bounds().Dx(), img.Bounds().Dy()
	start = time.Now()
	c, cardErr := card.AnalyzeFront(img)
	x.Timings.Card = time.Since(start)
	x.Card, x.CardErr = c, cardErr
	x.Aspect, x.Sharpness, x.Glare = c.Aspect, c.Sharpness, c.Glare
	x.CardFound = cardErr == nil && c.Image != nil
	x.ProportionsOK = c.AspectOK
	switch {
	case cardErr == nil:
	case errors.Is(cardErr, card.ErrCardTooSmall):
		x.Problems = append(x.Problems, flow.ProblemCardTooSmall)
	case errors.Is(cardErr, card.ErrTooBlurred):
		x.Problems = append(x.Problems, flow.ProblemTooBlurry)
	case errors.Is(cardErr, card.ErrImageTooLarge):
		x.Problems = append(x.Problems, flow.ProblemImageTooLarge)
	default:
		x.Problems = append(x.Problems, flow.ProblemCardNotFound)
	}
	// Without a card there are no proportions to fault: card_not_found
	// says it.
	if c.Aspect > 0 && !c.AspectOK {
		x.Problems = append(x.Problems, flow.ProblemAspect)
	}
	if c.Image != nil && c.Glare > MaxGlare {
		x.Problems = append(x.Problems, flow.ProblemGlare)
	}
	return x, nil
}

// portrait finds the portrait on the corrected card in its four
// orientations (card.FindPortrait), crops the headshot and keeps the
// descriptor the face engine computed for it. A face too large for a
// license portrait (card.ErrPortraitBlock) unmakes the card found.
func (w *worker) portrait(x *FrontExam) error {
	start := time.Now()
	p, err := card.FindPortrait(x.Card.Image, w.finder)
	x.Timings.Portrait = time.Since(start)
	switch {
	case errors.Is(err, card.ErrNoPortrait):
		x.Problems = append(x.Problems, flow.ProblemNoPortrait)
		return nil
	case errors.Is(err, card.ErrPortraitBlock):
		// The outline was the portrait's block: no card was found (its
		// proportions and glare were not the card's to fault), and a
		// stretched portrait goes neither to the face match nor out as
		// the headshot.
		x.CardFound, x.ProportionsOK, x.CardErr = false, false, err
		x.Problems = []flow.Problem{flow.ProblemCardNotFound}
		return nil
	}
	if err != nil {
		return fmt.Errorf("front: %w", err)
	}
	x.CardPortrait, x.FacePresent = &p, true
	// The descriptor the engine computed when it found the portrait:
	// faces of at least face.DefaultOptions' MinFaceSize (40 px) are
	// described, and a portrait is at least card.MinPortraitFace × 540 =
	// 81 px across.
	if fc, ok := w.finder.Face(p.Upright, p.Face); ok {
		x.Portrait = fc.Descriptor[:]
	}
	start = time.Now()
	if x.Headshot, err = card.Headshot(p); err != nil {
		return fmt.Errorf("front: %w", err)
	}
	x.Timings.Headshot = time.Since(start)
	return nil
}

// imageProblem maps imgio's coded errors to the problems a user fixes by
// sending another photo.
func imageProblem(err error) (flow.Problem, bool) {
	switch {
	case errors.Is(err, imgio.ErrTooLarge):
		return flow.ProblemImageTooLarge, true
	case errors.Is(err, imgio.ErrFormat):
		return flow.ProblemImageUnsupported, true
	}
	return "", false
}
