package engines

import (
	"context"
	"errors"
	"fmt"
	"image"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/faceengine"
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
	var rep flow.FrontReport
	err := e.run(ctx, func(w *worker) error {
		var err error
		rep, err = w.front(ctx, data)
		return err
	})
	return rep, err
}

func (w *worker) front(ctx context.Context, data []byte) (flow.FrontReport, error) {
	var rep flow.FrontReport
	img, err := imgio.DecodeImage(data, imgio.Upload)
	if p, ok := imageProblem(err); ok {
		rep.Problems = []flow.Problem{p}
		return rep, nil
	} else if err != nil {
		return rep, fmt.Errorf("front: %w", err)
	}
	c, cardErr := card.AnalyzeFront(img)
	rep.Aspect, rep.Sharpness, rep.Glare = c.Aspect, c.Sharpness, c.Glare
	rep.CardFound = cardErr == nil && c.Image != nil
	rep.ProportionsOK = c.AspectOK
	switch {
	case cardErr == nil:
	case errors.Is(cardErr, card.ErrCardTooSmall):
		rep.Problems = append(rep.Problems, flow.ProblemCardTooSmall)
	case errors.Is(cardErr, card.ErrTooBlurred):
		rep.Problems = append(rep.Problems, flow.ProblemTooBlurry)
	case errors.Is(cardErr, card.ErrImageTooLarge):
		rep.Problems = append(rep.Problems, flow.ProblemImageTooLarge)
	default:
		rep.Problems = append(rep.Problems, flow.ProblemCardNotFound)
	}
	// Without a card there are no proportions to fault: card_not_found
	// says it.
	if c.Aspect > 0 && !c.AspectOK {
		rep.Problems = append(rep.Problems, flow.ProblemAspect)
	}
	if c.Image == nil {
		return rep, nil
	}
	if c.Glare > MaxGlare {
		rep.Problems = append(rep.Problems, flow.ProblemGlare)
	}
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("front: %w", err)
	}
	if err := w.portrait(&rep, c.Image); err != nil {
		return rep, fmt.Errorf("front: %w", err)
	}
	return rep, nil
}

// portrait finds the portrait on the corrected card in its four
// orientations (card.FindPortrait), crops the headshot and keeps the
// descriptor the face engine computed for it.
func (w *worker) portrait(rep *flow.FrontReport, cardImg *image.RGBA) error {
	f := &describingFinder{an: w.face, found: map[image.Image][]face.Face{}}
	p, err := card.FindPortrait(cardImg, f)
	if errors.Is(err, card.ErrNoPortrait) {
		rep.Problems = append(rep.Problems, flow.ProblemNoPortrait)
		return nil
	}
	if err != nil {
		return err
	}
	rep.FacePresent = true
	if rep.Headshot, err = card.Headshot(p); err != nil {
		return err
	}
	// FindPortrait keeps the largest face of the chosen orientation: the
	// engine's first face there. Faces of at least face.DefaultOptions'
	// MinFaceSize (40 px) are described, and a portrait is at least
	// card.MinPortraitFace × 540 = 81 px.
	if faces := f.found[p.Upright]; len(faces) > 0 {
		d := faces[0].Descriptor
		rep.Portrait = d[:]
	}
	return nil
}

// describingFinder is card.FaceFinder on one worker's analyzer that also
// keeps the engine's faces per searched image, so the portrait's
// descriptor costs no second analysis.
type describingFinder struct {
	an    *face.Analyzer
	found map[image.Image][]face.Face
}

func (f *describingFinder) FindFaces(img image.Image) ([]card.Face, error) {
	found, err := f.an.Analyze(imgio.ToTensor(img))
	if err != nil {
		return nil, fmt.Errorf("find faces: %w", err)
	}
	f.found[img] = found
	return faceengine.CardFaces(found, img.Bounds()), nil
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
