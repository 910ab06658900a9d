package flow

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

// FrontAnswer is the answer to an accepted card front (the license's, the
// ID card's).
type FrontAnswer struct {
	Accepted bool        `json:"accepted"`
	Checks   FrontChecks `json:"checks"`
}

// FrontChecks are the checks the front passed (license_appears_real's
// front-side inputs).
type FrontChecks struct {
	CardFound     bool `json:"card_found"`
	ProportionsOK bool `json:"proportions_ok"`
	FacePresent   bool `json:"face_present"`
}

// BackAnswer is the answer to an accepted license back. It says nothing
// of what the barcode holds: the page is not shown personal data.
type BackAnswer struct {
	Accepted bool       `json:"accepted"`
	Checks   BackChecks `json:"checks"`
}

// BackChecks are the checks the back passed.
type BackChecks struct {
	BarcodeRead  bool `json:"barcode_read"`
	BarcodeValid bool `json:"barcode_valid"`
}

// Front judges a photo of the license front. Problems the user can fix are
// a *ProblemsError; an accepted front replaces any earlier one and keeps
// the photo, sealed, for manual review.
func (f *Flow) Front(ctx context.Context, token string, image []byte) (FrontAnswer, error) {
	return f.cardFront(ctx, token, StepLicenseFront, ReviewLicenseFront, image, f.Engines.FrontPrinted, func(s *Session, d *FrontDone) { s.Front = d })
}

// cardFront is the front of an ID-1 card with a portrait (the license's,
// the ID card's), judged by Engines.Front: the card, its portrait and,
// when front_barcode_match was asked, its printed personal-data zone, read
// by printed (the kind's reader of it). keep stores the accepted front on
// the session; the photo is kept for manual review as review.
func (f *Flow) cardFront(ctx context.Context, token string, step Step, review ReviewImage, image []byte,
	printed func(context.Context, []byte) (FrontReport, error), keep func(*Session, *FrontDone)) (FrontAnswer, error) {
	var out FrontAnswer
	err := f.upload(ctx, token, step, image, &out, func(v verifier.Verification) (func(*Session), []Problem, any, error) {
		st, err := verifier.ParseSettings(v.Options)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", step, err)
		}
		front := f.Engines.Front
		if st.FrontBarcodeMatch {
			front = printed
		}
		rep, err := front(ctx, image)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", step, err)
		}
		if len(rep.Problems) > 0 {
			return nil, rep.Problems, nil, nil
		}
		done := &FrontDone{CardFound: rep.CardFound, ProportionsOK: rep.ProportionsOK, FacePresent: rep.FacePresent,
			Headshot: rep.Headshot, Portrait: rep.Portrait, Printed: rep.Printed}
		if err := f.keepForReview(ctx, v, review, image); err != nil {
			return nil, nil, nil, err
		}
		return func(s *Session) { keep(s, done) }, nil, FrontAnswer{Accepted: true,
			Checks: FrontChecks{CardFound: rep.CardFound, ProportionsOK: rep.ProportionsOK, FacePresent: rep.FacePresent}}, nil
	})
	return out, err
}

// Back reads and validates the barcode on a photo of the license back and
// records the client IP (for IP intelligence). license_expired is not a
// problem: it is a result field.
func (f *Flow) Back(ctx context.Context, token string, image []byte, clientIP string) (BackAnswer, error) {
	var out BackAnswer
	err := f.upload(ctx, token, StepLicenseBack, image, &out, func(verifier.Verification) (func(*Session), []Problem, any, error) {
		rep, err := f.Engines.Back(ctx, image)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("license back: %w", err)
		}
		if len(rep.Problems) > 0 {
			return nil, rep.Problems, nil, nil
		}
		done := &BackDone{License: rep.License}
		return func(s *Session) { s.Back, s.BackIP = done, clientIP }, nil,
			BackAnswer{Accepted: true, Checks: BackChecks{BarcodeRead: true, BarcodeValid: true}}, nil
	})
	return out, err
}

// upload is the shape of every document step's photo: resolve the link,
// refuse a step of a kind the session does not show (stepKind), answer a
// retried request from memory, check the image, judge it (judge returns
// how to set the step's outcome on the session, or the problems), store
// the outcome and the kind it fixes, mark the verification started on
// success. out receives the answer.
func (f *Flow) upload(ctx context.Context, token string, step Step, image []byte, out any,
	judge func(v verifier.Verification) (func(*Session), []Problem, any, error)) error {
	v, err := f.link(ctx, token)
	if err != nil {
		return err
	}
	s, err := f.load(ctx, v)
	if err != nil {
		return err
	}
	if s.Phase != PhaseCollecting {
		return fmt.Errorf("%s: %w: the steps were submitted", step, ErrOutOfOrder)
	}
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	kind, err := s.stepKind(st.Documents(), step)
	if err != nil {
		return err
	}
	digest := sha256.Sum256(image)
	if r, ok := s.replay(step, digest); ok {
		return r.answer(step, out)
	}
	problems := imageProblems(image, f.Limits.MaxImageBytes, f.Limits.MaxImagePixels)
	var set func(*Session)
	var answer any
	if problems == nil {
		if set, problems, answer, err = judge(v); err != nil {
			return err
		}
	}
	reply := Reply{Digest: digest, Problems: problems}
	if problems == nil {
		if reply.Answer, err = json.Marshal(answer); err != nil {
			return fmt.Errorf("%s: %w", step, err)
		}
	}
	if _, err := f.update(ctx, v, func(cur *Session) error {
		if cur.Phase != PhaseCollecting {
			return fmt.Errorf("%s: %w: the steps were submitted meanwhile", step, ErrOutOfOrder)
		}
		if _, err := cur.stepKind(st.Documents(), step); err != nil {
			return err // the pick changed meanwhile
		}
		if set != nil {
			set(cur)
			cur.Document = kind // a passed step fixes the kind
		}
		cur.remember(step, reply)
		return nil
	}); err != nil {
		return err
	}
	if problems == nil {
		if err := f.markStarted(ctx, v); err != nil {
			return err
		}
	}
	return reply.answer(step, out)
}

// answer is the remembered reply as the step's answer (into out) or its
// *ProblemsError.
func (r Reply) answer(step Step, out any) error {
	if len(r.Problems) > 0 {
		return &ProblemsError{Step: step, Problems: r.Problems}
	}
	if err := json.Unmarshal(r.Answer, out); err != nil {
		return fmt.Errorf("%s: replay: %w", step, err)
	}
	return nil
}
