package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// A card carrying someone else's face is not a match: submit offers
// review and waits, and the steps are closed. Review sends the
// verification to manual_review at once (its webhook due) with the face
// verdict "undetermined" and manual_review_requested; a retried review
// answers the same and a decline after it is refused as on any ended link.
// A second link declines and completes without review.
func TestReviewOffered(t *testing.T) {
	parts.OnBothBackends(t, func(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
		r := newRig(t, open(t))
		ctx := context.Background()
		other := r.front(r.labeledFace("sheldon/sheldon2.png"), 2)
		body := `{"webhook_url":"https://hooks.example.com/idgate"}`
		reviewID, rtok := r.create(body)
		declineID, dtok := r.create(body)
		for _, tok := range []string{rtok, dtok} {
			r.licenseSteps(tok, other)
			if ans := r.answer(tok, r.foreman()); !ans.Passed {
				t.Fatalf("Foreman's answer failed: %+v", ans)
			}
			if _, err := r.flow.Review(ctx, tok); !errors.Is(err, flow.ErrOutOfOrder) {
				t.Fatalf("review before the offer: %v, want out of order", err)
			}
			if a, err := r.flow.Submit(ctx, tok, "203.0.113.9"); err != nil || a.Status != flow.StatusReviewOffered {
				t.Fatalf("submit answered %+v, %v; want review_offered (another person's card)", a, err)
			}
			if s, err := r.flow.Session(ctx, tok); err != nil || !s.ReviewAvailable || s.Status != flow.StatusReviewOffered {
				t.Fatalf("session after the offer %+v, %v", s, err)
			}
			if _, err := r.flow.NewChallenge(ctx, tok); !errors.Is(err, flow.ErrOutOfOrder) {
				t.Fatalf("a challenge after submit: %v, want out of order", err)
			}
		}

		for range 2 { // the second is a retry: the same answer
			if a, err := r.flow.Review(ctx, rtok); err != nil || a.Status != string(verifier.StatusManualReview) {
				t.Fatalf("review answered %+v, %v", a, err)
			}
		}
		var ended *flow.LinkEndedError
		if _, err := r.flow.DeclineReview(ctx, rtok); !errors.As(err, &ended) {
			t.Fatalf("a decline after review: %v, want the link ended", err)
		}
		verdicts := func(id string) (verifier.Status, map[string]any) {
			t.Helper()
			v := r.verification(id)
			var res struct {
				Verification map[string]any `json:"verification"`
			}
			if err := json.Unmarshal(v.Result, &res); err != nil {
				t.Fatal(err)
			}
			return v.Status, res.Verification
		}
		if st, ver := verdicts(reviewID); st != verifier.StatusManualReview ||
			ver["webcam_face_matches_license_photo"] != "undetermined" || ver["manual_review_requested"] != true {
			t.Fatalf("manual review: %s %v", st, ver)
		}
		r.delivered(reviewID)

		if a, err := r.flow.DeclineReview(ctx, dtok); err != nil || a.Status != string(verifier.StatusCompleted) {
			t.Fatalf("decline answered %+v, %v", a, err)
		}
		if st, ver := verdicts(declineID); st != verifier.StatusCompleted ||
			ver["webcam_face_matches_license_photo"] != false || ver["manual_review_requested"] != nil {
			t.Fatalf("declined: %s %v", st, ver)
		}
		r.delivered(declineID)
	})
}
