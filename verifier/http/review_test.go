package http

import (
	"encoding/json"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// The reviewer's decision completes a verification in manual_review and
// sets the face verdict; nothing else takes a decision.
func TestReviewDecision(t *testing.T) {
	onBothBackends(t, func(t *testing.T, open func(*testing.T) *sqlstore.DB) {
		h := newHarnessOn(t, open(t))
		a, bearer := h.owner()
		_, otherBearer := h.owner()
		review := func(bearer, id, body string) response {
			return h.do("POST", "/verification/review?id="+id, body, "Authorization", bearer, "Content-Type", "application/json")
		}

		pending := h.create(bearer, `{}`)
		expectError(t, review(bearer, pending.ID, `{"approved":true}`), 409, httperr.Conflict)

		v := h.create(bearer, `{}`)
		begin(t, h, a.ID, v.ID)
		finish(t, h, a.ID, v.ID, verifier.StatusManualReview,
			`{"request_id":"`+v.ID+`","verification":{"face_match_score":"possible_match","manual_review_requested":true,"webcam_face_matches_license_photo":"undetermined"}}`)

		expectError(t, review(otherBearer, v.ID, `{"approved":true}`), 404, httperr.NotFound)
		expectError(t, review(bearer, v.ID, `{}`), 422, httperr.ValidationFailed)
		expectError(t, review(bearer, v.ID, `{"approved":"yes"}`), 422, httperr.ValidationFailed)
		expectError(t, review(bearer, v.ID, `{"approved":`), 400, httperr.MalformedJSON)

		r := review(bearer, v.ID, `{"approved":false}`)
		var got verificationResponse
		r.json(t, &got)
		if r.status != 200 || got.Status != verifier.StatusCompleted {
			t.Fatalf("review: %d %s", r.status, r.body)
		}
		r = h.do("GET", "/verification?id="+v.ID, "", "Authorization", bearer)
		var read struct {
			Result struct {
				Verification map[string]any `json:"verification"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.body, &read); err != nil || r.status != 200 {
			t.Fatalf("get: %d %s %v", r.status, r.body, err)
		}
		if ver := read.Result.Verification; ver["webcam_face_matches_license_photo"] != false || ver["manual_review_requested"] != true || ver["face_match_score"] != "possible_match" {
			t.Fatalf("decided result %v", ver)
		}
		expectError(t, review(bearer, v.ID, `{"approved":true}`), 409, httperr.Conflict)
	})
}
