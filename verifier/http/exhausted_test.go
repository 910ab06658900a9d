package http

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/openapi"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// stillAnswer is a liveness answer that fails: Foreman's first frame over
// and over, so no step is ever done.
func stillAnswer(t *testing.T) ([][]byte, []float64) {
	t.Helper()
	frames, ms := foremanAnswer(t)
	still := slices.Clone(frames)
	for i := range still {
		still[i] = frames[0]
	}
	return still, ms
}

// failAttempt answers a new challenge with a still face and returns the
// verdict.
func (h *flowHarness) failAttempt(tok string) flow.LivenessAnswer {
	h.t.Helper()
	ch := h.challenge(tok)
	h.clock.Advance(5 * time.Second)
	frames, ms := stillAnswer(h.t)
	var ans flow.LivenessAnswer
	h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, &ans)
	if ans.Passed {
		h.t.Fatalf("a still face passed: %+v", ans)
	}
	return ans
}

// TestFlowLivenessExhausted: the last liveness attempt failing completes
// the verification at once, as a submit does (one webhook with the same
// bytes as GET), with webcam_appears_live false, the face match false and
// its figures absent, and the license results of the steps done; the link
// then refuses everything as any completed one does. A pass after four
// failures still completes normally.
func TestFlowLivenessExhausted(t *testing.T) {
	onBothBackends(t, testFlowLivenessExhausted)
}

func testFlowLivenessExhausted(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newFlowHarness(t, open)
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	resultSchema := doc.Components.Schemas["Result"].Value

	v, tok := h.link(fmt.Sprintf(`{"requested_fields":["last_name","dob"],"include_license_photo":true,
		"encryption_key_mode":"none","webhook_url":%q}`, h.rcv.URL))
	front := frontPhoto(t, foremanFace(t), 1)
	h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, nil)
	back, lic := backPhoto(t, 5)
	h.ok(h.post(tok, "/license/back", "image/jpeg", back), 200, nil)
	for want := 4; want >= 1; want-- {
		if ans := h.failAttempt(tok); ans.AttemptsLeft != want {
			t.Fatalf("attempts left %d, want %d", ans.AttemptsLeft, want)
		}
		if got := h.get(h.bearer, v.ID); got.Status != "started" {
			t.Fatalf("after a failed attempt with %d left the verification is %s", want, got.Status)
		}
	}
	ch := h.challenge(tok)
	h.clock.Advance(5 * time.Second)
	frames, ms := stillAnswer(t)
	var last flow.LivenessAnswer
	h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, &last)
	if last.Passed || last.AttemptsLeft != 0 || len(last.Failures) == 0 {
		t.Fatalf("last attempt %+v", last)
	}

	got := h.get(h.bearer, v.ID)
	var res struct {
		Verification map[string]any `json:"verification"`
		LicenseData  map[string]any `json:"license_data"`
		LicensePhoto string         `json:"license_photo"`
	}
	if err := json.Unmarshal(got.Result, &res); err != nil {
		t.Fatal(err)
	}
	ver := res.Verification
	if got.Status != "completed" || got.CompletedAt == nil || ver["webcam_appears_live"] != false ||
		ver["webcam_face_matches_license_photo"] != false || ver["license_appears_real"] != true || ver["license_expired"] != false {
		t.Fatalf("verification %s: %s", got.Status, got.Result)
	}
	for _, absent := range []string{"face_match_score", "face_match_confidence", "face_match_cosine_similarity", "manual_review_requested"} {
		if _, has := ver[absent]; has {
			t.Errorf("%s present without a live selfie: %s", absent, got.Result)
		}
	}
	if res.LicenseData["last_name"] != lic.LastName || res.LicenseData["dob"] != lic.DOB.String() || res.LicensePhoto == "" {
		t.Errorf("license results of the steps done missing: %s", got.Result)
	}
	var m map[string]any
	if err := json.Unmarshal(got.Result, &m); err != nil {
		t.Fatal(err)
	}
	if err := resultSchema.VisitJSON(m); err != nil {
		t.Errorf("result does not match the OpenAPI document: %v", err)
	}
	// One completion: one delivery, the same bytes as GET.
	bodies := h.delivered(1)
	if len(bodies) != 1 || string(bodies[0]) != string(got.Result) {
		t.Fatalf("%d deliveries; first:\n%s\nGET:\n%s", len(bodies), bodies[0], got.Result)
	}
	var hook map[string]any
	if err := json.Unmarshal(bodies[0], &hook); err != nil || resultSchema.VisitJSON(hook) != nil {
		t.Errorf("webhook body does not match the OpenAPI document (%v): %s", err, bodies[0])
	}
	// No selfie is kept: there is nothing live to review.
	if imgs, err := h.fstore.ReviewImages(context.Background(), h.acct.ID, v.ID); err != nil || imgs[flow.ReviewSelfie] != nil {
		t.Errorf("review images %v, %v", len(imgs), err)
	}

	// The link is done: a 6th attempt, the same answer again, submit and
	// review are refused as on any completed link; the page's session says
	// completed.
	expectError(t, h.post(tok, "/liveness", "", nil), 410, "GONE")
	expectError(t, h.answer(tok, ch.ChallengeID, frames, ms), 410, "GONE")
	expectError(t, h.post(tok, "/submit", "", nil), 410, "GONE")
	expectError(t, h.post(tok, "/review", "", nil), 410, "GONE")
	if s := h.session(tok); s.Status != "completed" {
		t.Errorf("session %+v", s)
	}
	if again := h.get(h.bearer, v.ID); string(again.Result) != string(got.Result) || !again.CompletedAt.Equal(*got.CompletedAt) {
		t.Errorf("the refused requests changed the verification: %s", again.Result)
	}

	t.Run("a pass after four failures completes normally", func(t *testing.T) {
		v, tok := h.link(`{"encryption_key_mode":"none"}`)
		h.ok(h.post(tok, "/license/front", "image/jpeg", front), 200, nil)
		h.ok(h.post(tok, "/license/back", "image/jpeg", back), 200, nil)
		for range 4 {
			h.failAttempt(tok)
		}
		ch := h.challenge(tok)
		h.clock.Advance(5 * time.Second)
		frames, ms := foremanAnswer(t)
		var ans flow.LivenessAnswer
		h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, &ans)
		if !ans.Passed || ans.AttemptsLeft != 0 {
			t.Fatalf("fifth attempt %+v", ans)
		}
		if got := h.get(h.bearer, v.ID); got.Status != "started" {
			t.Fatalf("a passed last attempt ended the verification: %s", got.Status)
		}
		var done flow.SubmitAnswer
		h.ok(h.post(tok, "/submit", "", nil), 200, &done)
		got := h.get(h.bearer, v.ID)
		if done.Status != "completed" || got.Status != "completed" || !json.Valid(got.Result) {
			t.Fatalf("submit %s, verification %s", done.Status, got.Status)
		}
		var res struct {
			Verification map[string]any `json:"verification"`
		}
		if err := json.Unmarshal(got.Result, &res); err != nil || res.Verification["webcam_appears_live"] != true ||
			res.Verification["face_match_score"] == nil {
			t.Errorf("result %s (%v)", got.Result, err)
		}
	})
}
