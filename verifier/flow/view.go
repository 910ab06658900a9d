package flow

import (
	"context"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

// View is what the page needs to show a link: never personal data.
type View struct {
	// Status is the verification's (pending, started, completed,
	// manual_review) or review_offered while the end user decides.
	Status string     `json:"status"`
	Steps  []StepView `json:"steps"`
	// Message is the account holder's message to the end user.
	Message string `json:"message,omitempty"`
	// RequestedFields are the license fields the account holder will
	// receive, for informed consent.
	RequestedFields []string  `json:"requested_fields"`
	EncryptionMode  string    `json:"encryption_mode"`
	ExpiresAt       time.Time `json:"expires_at"`
	// ReviewAvailable: manual review may be requested now.
	ReviewAvailable      bool `json:"review_available"`
	LivenessAttemptsLeft int  `json:"liveness_attempts_left"`
}

// StepView is one step and whether it has passed.
type StepView struct {
	Name Step `json:"name"`
	Done bool `json:"done"`
}

// Session shows where the link stands. Expired and canceled links are a
// *LinkEndedError; finished ones are shown (completed or manual_review,
// every step done) so the page can say so. Reading never starts the
// verification.
func (f *Flow) Session(ctx context.Context, token string) (View, error) {
	v, err := f.link(ctx, token)
	finished := v.Status == verifier.StatusCompleted || v.Status == verifier.StatusManualReview
	if err != nil && !finished {
		return View{}, err
	}
	st, err := verifier.ParseSettings(v.Options)
	if err != nil {
		return View{}, fmt.Errorf("session: %w", err)
	}
	view := View{Status: string(v.Status), Message: v.Message, RequestedFields: st.RequestedFields,
		EncryptionMode: string(st.EncryptionKeyMode), ExpiresAt: v.ExpiresAt}
	if view.RequestedFields == nil {
		view.RequestedFields = []string{}
	}
	if view.EncryptionMode == "" {
		view.EncryptionMode = "none"
	}
	s, err := f.load(ctx, v)
	if err != nil {
		return View{}, err
	}
	for _, step := range Steps {
		view.Steps = append(view.Steps, StepView{Name: step, Done: finished || s.Done(step)})
	}
	if !finished {
		view.LivenessAttemptsLeft = f.attemptsLeft(&s)
		if s.Phase == PhaseReviewOffered {
			view.Status, view.ReviewAvailable = StatusReviewOffered, true
		}
	}
	return view, nil
}
