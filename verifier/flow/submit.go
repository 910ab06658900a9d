package flow

import (
	"context"
	"errors"
	"fmt"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/match"
)

// StatusReviewOffered is the answer to a submit whose face match was
// inconclusive or failed: the verification waits (still started) for the
// end user to ask for review or decline it.
const StatusReviewOffered = "review_offered"

// SubmitAnswer is the outcome of submit, review and decline-review:
// completed, manual_review or review_offered.
type SubmitAnswer struct {
	Status string `json:"status"`
}

// Submit runs the face match (the license portrait against the liveness
// selfie) once the three steps passed and completes the verification; an
// inconclusive or failed match offers manual review instead and waits.
// Submitting again while review is offered completes without review (as
// DeclineReview does). A retried submit answers what the first did.
func (f *Flow) Submit(ctx context.Context, token, clientIP string) (SubmitAnswer, error) {
	v, s, done, err := f.finishing(ctx, token, ActionSubmit)
	if err != nil || done != nil {
		return deref(done), err
	}
	switch s.Phase {
	case PhaseReviewOffered:
		return f.complete(ctx, v, ActionSubmit, false)
	case PhaseCollecting:
	default:
		return SubmitAnswer{}, fmt.Errorf("submit: %w", ErrOutOfOrder)
	}
	steps, err := f.steps(v, &s)
	if err != nil {
		return SubmitAnswer{}, err
	}
	if !s.ready(steps) {
		return SubmitAnswer{}, fmt.Errorf("submit: %w: the document's steps and liveness (and the phone, when asked) must pass first", ErrOutOfOrder)
	}
	m, err := f.Engines.Compare(s.capture().Portrait, s.Live.Selfie)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("submit: face match: %w", err)
	}
	if !verifier.ReviewOffered(m.Tier) {
		if _, err := f.update(ctx, v, func(cur *Session) error { return setMatch(cur, steps, m, clientIP, PhaseCollecting) }); err != nil {
			return SubmitAnswer{}, err
		}
		return f.complete(ctx, v, ActionSubmit, false)
	}
	if _, err := f.update(ctx, v, func(cur *Session) error { return setMatch(cur, steps, m, clientIP, PhaseReviewOffered) }); err != nil {
		return SubmitAnswer{}, err
	}
	if err := f.markStarted(ctx, v); err != nil {
		return SubmitAnswer{}, err
	}
	return SubmitAnswer{Status: StatusReviewOffered}, nil
}

// setMatch records the match of a submit on a session that is still ready
// to submit, moving it to phase.
func setMatch(s *Session, steps []Step, m match.Result, clientIP string, phase Phase) error {
	if s.Phase != PhaseCollecting || !s.ready(steps) {
		return fmt.Errorf("submit: %w: the session changed meanwhile", ErrOutOfOrder)
	}
	s.Match, s.SubmitIP, s.Phase = &m, clientIP, phase
	return nil
}

// Review is the end user asking for manual review after the offer: the
// verification goes to manual_review (its webhook is sent at once) with
// webcam_face_matches_license_photo "undetermined".
func (f *Flow) Review(ctx context.Context, token string) (SubmitAnswer, error) {
	return f.decide(ctx, token, ActionReview)
}

// DeclineReview is the end user declining the offer: the verification
// completes without review.
func (f *Flow) DeclineReview(ctx context.Context, token string) (SubmitAnswer, error) {
	return f.decide(ctx, token, ActionDecline)
}

func (f *Flow) decide(ctx context.Context, token string, a Action) (SubmitAnswer, error) {
	v, s, done, err := f.finishing(ctx, token, a)
	if err != nil || done != nil {
		return deref(done), err
	}
	if s.Phase != PhaseReviewOffered {
		return SubmitAnswer{}, fmt.Errorf("%s: %w: manual review is offered only after a submit whose face match was inconclusive", a, ErrOutOfOrder)
	}
	return f.complete(ctx, v, a, a == ActionReview)
}

// finishing resolves the link for a finishing action. On a finished
// verification it answers a retry of the action that finished it (done)
// and refuses anything else with ErrLinkEnded.
func (f *Flow) finishing(ctx context.Context, token string, a Action) (verifier.Verification, Session, *SubmitAnswer, error) {
	v, err := f.link(ctx, token)
	var ended *LinkEndedError
	if errors.As(err, &ended) && (v.Status == verifier.StatusCompleted || v.Status == verifier.StatusManualReview) {
		s, lerr := f.load(ctx, v)
		if lerr != nil {
			return v, Session{}, nil, lerr
		}
		if s.Phase == PhaseFinished && s.Finish == a {
			return v, s, &SubmitAnswer{Status: s.FinishStatus}, nil
		}
		return v, s, nil, err
	}
	if err != nil {
		return v, Session{}, nil, err
	}
	s, err := f.load(ctx, v)
	return v, s, nil, err
}

func deref(a *SubmitAnswer) SubmitAnswer {
	if a == nil {
		return SubmitAnswer{}
	}
	return *a
}

// complete builds the outcome from the session and completes the
// verification through verifier.Complete (result sealed, webhook enqueued
// in the same transaction), then finishes the session, dropping its
// personal data.
func (f *Flow) complete(ctx context.Context, v verifier.Verification, a Action, review bool) (SubmitAnswer, error) {
	s, err := f.load(ctx, v)
	if err != nil {
		return SubmitAnswer{}, err
	}
	if s.Test != nil { // a test link in review_offered (testmode.go)
		return f.finishTest(ctx, v, *s.Test, s.Phone, a, review)
	}
	steps, err := f.steps(v, &s)
	if err != nil {
		return SubmitAnswer{}, err
	}
	if s.Match == nil || !s.ready(steps) {
		return SubmitAnswer{}, fmt.Errorf("%s: %w", a, ErrOutOfOrder)
	}
	settings, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("%s: %w", a, err)
	}
	o := s.outcome(settings.Documents())
	o.FaceMatch, o.ReviewRequested, o.Live = *s.Match, review, true
	return f.completeWith(ctx, v, s, a, o)
}

// completeWith adds the indicators to the session's outcome o (phone, IP,
// location, address), completes the verification through
// verifier.Complete and finishes the session as action a.
func (f *Flow) completeWith(ctx context.Context, v verifier.Verification, s Session, a Action, o verifier.Outcome) (SubmitAnswer, error) {
	if err := f.markStarted(ctx, v); err != nil {
		return SubmitAnswer{}, err
	}
	settings, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("%s: %w", a, err)
	}
	o.Phone = phoneResult(s.Phone)
	f.connection(&o, s, settings.LocationConsistency)
	// The address is the document's: without one read there is none.
	if settings.AddressVerification && o.License != nil {
		o.Address = f.addressCheck(ctx, v, o.License, verifiedNumber(v, s.Phone))
	}
	done, err := verifier.Complete(ctx, f.Verifications, f.now(), v.AccountID, v.ID, o)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("%s: %w", a, err)
	}
	if _, err := f.update(ctx, v, func(cur *Session) error {
		cur.finish(a, string(done.Status))
		return nil
	}); err != nil {
		return SubmitAnswer{}, err
	}
	return SubmitAnswer{Status: string(done.Status)}, nil
}
