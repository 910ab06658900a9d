package flow

import (
	"context"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

// exhausted reports whether the session used every judged liveness
// attempt without a pass while still collecting: the end user has nothing
// left to do, so the verification must end now rather than wait, started,
// until the link expires.
func (f *Flow) exhausted(s *Session) bool {
	return s.Test == nil && s.Phase == PhaseCollecting && s.Live == nil && f.attemptsLeft(s) == 0
}

// completeExhausted completes the verification of a session whose last
// liveness attempt failed, through the same path as a submit (completeWith,
// verifier.Complete: one transaction, the webhook enqueued): webcam_appears_live
// false, webcam_face_matches_license_photo false and no face match figures,
// since there is no live selfie to compare or to review (no review offer),
// with the document results the steps produced (Capture). A step not
// done contributes nothing: without the back, the license is unread (no
// dates: over_18 and over_21 false, license_expired true, every requested
// field null, as for a barcode that lacks them) and license_appears_real is
// false, as with any missing piece of evidence.
//
// It is called after the last failed attempt, and again wherever an
// exhausted session is met (a retried liveness request, a new challenge),
// so a completion that failed once (the store down) is retried rather
// than leaving the link stuck.
func (f *Flow) completeExhausted(ctx context.Context, v verifier.Verification, s Session) (SubmitAnswer, error) {
	settings, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return SubmitAnswer{}, fmt.Errorf("%s: %w", ActionLivenessExhausted, err)
	}
	o := s.outcome(settings.Documents())
	o.LivenessExhausted = true
	return f.completeWith(ctx, v, s, ActionLivenessExhausted, o)
}
