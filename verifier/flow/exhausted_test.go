package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// attempt answers a new challenge: with Foreman's frames (which pass) or
// with his first frame over and over (no step done: a failure).
func attempt(r *rig, tok string, pass bool) flow.LivenessAnswer {
	r.t.Helper()
	frames := r.foreman()
	if !pass {
		for i := range frames {
			frames[i].Data = frames[0].Data
		}
	}
	ans := r.answer(tok, frames)
	if ans.Passed != pass {
		r.t.Fatalf("attempt passed %v, want %v: %+v", ans.Passed, pass, ans)
	}
	return ans
}

// The fifth failed liveness attempt completes the verification at once
// through verifier.Complete, as a submit does: completed, webcam_appears_live
// false, the face verdict false without a score, the license results of the
// steps done, a result the OpenAPI document describes, no selfie kept (there
// is nothing live to review), one webhook delivery due now with the
// result's bytes. The link then refuses a sixth attempt and a submit as any
// completed link does (verifier/http answers those 410).
func TestLastFailedLivenessAttemptCompletes(t *testing.T) {
	parts.OnBothBackends(t, testLastFailedLivenessAttemptCompletes)
}

func testLastFailedLivenessAttemptCompletes(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	r := newRig(t, open(t))
	ctx := context.Background()
	id, tok, lic := r.licensed()
	for left := 4; left >= 1; left-- {
		if ans := attempt(r, tok, false); ans.AttemptsLeft != left {
			t.Fatalf("attempts left %d, want %d", ans.AttemptsLeft, left)
		}
		if v := r.verification(id); v.Status != verifier.StatusStarted {
			t.Fatalf("with %d attempts left the verification is %s", left, v.Status)
		}
	}
	completedAt := r.now.Add(5 * time.Second)
	if ans := attempt(r, tok, false); ans.AttemptsLeft != 0 || len(ans.Failures) == 0 {
		t.Fatalf("last attempt %+v", ans)
	}
	v := r.verification(id)
	var res struct {
		Verification map[string]any `json:"verification"`
		LicenseData  map[string]any `json:"license_data"`
		LicensePhoto string         `json:"license_photo"`
	}
	if err := json.Unmarshal(v.Result, &res); err != nil {
		t.Fatal(err)
	}
	ver := res.Verification
	if v.Status != verifier.StatusCompleted || !v.CompletedAt.Equal(completedAt) || ver["webcam_appears_live"] != false ||
		ver["webcam_face_matches_license_photo"] != false || ver["license_appears_real"] != true || ver["license_expired"] != false {
		t.Fatalf("%s at %v: %s", v.Status, v.CompletedAt, v.Result)
	}
	if res.LicenseData["last_name"] != lic.LastName || res.LicenseData["dob"] != lic.DOB.String() || res.LicensePhoto == "" {
		t.Errorf("license results of the steps done missing: %s", v.Result)
	}
	documented(t, v.Result)
	if imgs, err := r.store.ReviewImages(ctx, r.acct, id); err != nil || imgs[flow.ReviewLicenseFront] == nil || imgs[flow.ReviewSelfie] != nil {
		t.Errorf("review images %d (%v): want the license front and no selfie", len(imgs), err)
	}
	for _, absent := range []string{"face_match_score", "face_match_confidence", "face_match_cosine_similarity", "manual_review_requested"} {
		if _, has := ver[absent]; has {
			t.Errorf("%s present: %s", absent, v.Result)
		}
	}
	hist, err := r.store.History(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 1 || hist[0].State != "pending" || !hist[0].NextAttemptAt.Equal(completedAt) ||
		!bytes.Equal(hist[0].Payload, v.Result) || hist[0].URL != "https://hooks.example.com/idgate" {
		t.Fatalf("deliveries %+v", hist)
	}

	var ended *flow.LinkEndedError
	if _, err := r.flow.NewChallenge(ctx, tok); !errors.As(err, &ended) || ended.Status != verifier.StatusCompleted {
		t.Errorf("a sixth challenge: %v, want the link ended (completed)", err)
	}
	if _, err := r.flow.Submit(ctx, tok, ""); !errors.As(err, &ended) {
		t.Errorf("submit: %v, want the link ended", err)
	}
	if _, err := r.flow.Liveness(ctx, tok, "x", []liveness.Frame{}); !errors.As(err, &ended) {
		t.Errorf("an answer: %v, want the link ended", err)
	}
	if s, err := r.flow.Session(ctx, tok); err != nil || s.Status != string(verifier.StatusCompleted) {
		t.Errorf("session %+v, %v", s, err)
	}
	if after := r.verification(id); !bytes.Equal(after.Result, v.Result) {
		t.Error("the refused requests changed the result")
	}
	if hist, err := r.store.History(ctx, id); err != nil || len(hist) != 1 {
		t.Errorf("%d deliveries after the refused requests (%v), want 1", len(hist), err)
	}
}

// A pass on the last attempt after four failures leaves the verification
// started for submit, which completes it with the face match as always.
func TestLastLivenessAttemptPassingStillSubmits(t *testing.T) {
	r := newRig(t, parts.OpenSQLite(t))
	ctx := context.Background()
	id, tok, _ := r.licensed()
	for range 4 {
		attempt(r, tok, false)
	}
	if ans := attempt(r, tok, true); ans.AttemptsLeft != 0 {
		t.Fatalf("last attempt %+v", ans)
	}
	if v := r.verification(id); v.Status != verifier.StatusStarted {
		t.Fatalf("a passed last attempt left the verification %s", v.Status)
	}
	done, err := r.flow.Submit(ctx, tok, "203.0.113.9")
	if err != nil || done.Status != string(verifier.StatusCompleted) {
		t.Fatalf("submit %+v, %v", done, err)
	}
	v := r.verification(id)
	var res struct {
		Verification map[string]any `json:"verification"`
	}
	if err := json.Unmarshal(v.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Verification["webcam_appears_live"] != true || res.Verification["face_match_score"] == nil {
		t.Errorf("result %s", v.Result)
	}
	if hist, err := r.store.History(ctx, id); err != nil || len(hist) != 1 {
		t.Errorf("%d deliveries (%v), want 1", len(hist), err)
	}
}
