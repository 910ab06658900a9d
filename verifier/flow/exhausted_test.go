package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// exhaustRig is the flow on the real engines and a SQLite store, with an
// account and a clock the test moves.
type exhaustRig struct {
	t     *testing.T
	flow  *flow.Flow
	store *sqlstore.DB
	vs    *verifier.Verifications
	acct  string
	now   time.Time
	data  flowtest.Data
}

func newExhaustRig(t *testing.T) *exhaustRig {
	t.Helper()
	eng := enginestest.Load(t, 1) // skips (or fails under CI) without the models
	store := parts.OpenSQLite(t)
	r := &exhaustRig{t: t, store: store, now: time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC), data: flowtest.DataFor(t)}
	clock := func() time.Time { return r.now }
	r.acct = parts.Account(t, store, "owner@example.com", "correct horse battery staple", r.now).ID
	r.vs = &verifier.Verifications{Store: store, Now: clock, Plan: verifier.UnlimitedPlan}
	r.flow = parts.Flow(&flow.Flow{Engines: eng, Rand: &flowtest.OrderedRand{}}, store, seal.Ephemeral(), clock)
	return r
}

// link creates a verification with a webhook and passes its license
// steps; it returns the verification's id and link token.
func (r *exhaustRig) link() (string, string) {
	r.t.Helper()
	var req verifier.CreateRequest
	if err := json.Unmarshal([]byte(`{"encryption_key_mode":"none","requested_fields":["dob"],
		"webhook_url":"https://hooks.example.com/idgate"}`), &req); err != nil {
		r.t.Fatal(err)
	}
	c, err := r.vs.Create(context.Background(), r.acct, req)
	if err != nil {
		r.t.Fatal(err)
	}
	face, err := r.data.ForemanFace()
	if err != nil {
		r.t.Fatal(err)
	}
	front, err := flowtest.FrontPhoto(face, 1600, 1)
	if err != nil {
		r.t.Fatal(err)
	}
	back, _, err := flowtest.BackPhoto(5, 0, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx := context.Background()
	if a, err := r.flow.Front(ctx, c.Token, front); err != nil || !a.Accepted {
		r.t.Fatalf("front %+v, %v", a, err)
	}
	if a, err := r.flow.Back(ctx, c.Token, back, "203.0.113.9"); err != nil || !a.Accepted {
		r.t.Fatalf("back %+v, %v", a, err)
	}
	return c.ID, c.Token
}

// attempt answers a new challenge: with Foreman's frames (which pass) or
// with his first frame over and over (no step done: a failure).
func (r *exhaustRig) attempt(tok string, pass bool) flow.LivenessAnswer {
	r.t.Helper()
	ctx := context.Background()
	ch, err := r.flow.NewChallenge(ctx, tok)
	if err != nil {
		r.t.Fatal(err)
	}
	r.now = r.now.Add(5 * time.Second)
	frames, err := r.data.ForemanAnswer(36, 96)
	if err != nil {
		r.t.Fatal(err)
	}
	if !pass {
		for i := range frames {
			frames[i].Data = frames[0].Data
		}
	}
	ans, err := r.flow.Liveness(ctx, tok, ch.ChallengeID, frames)
	if err != nil {
		r.t.Fatal(err)
	}
	if ans.Passed != pass {
		r.t.Fatalf("attempt passed %v, want %v: %+v", ans.Passed, pass, ans)
	}
	return ans
}

func (r *exhaustRig) verification(id string) verifier.Verification {
	r.t.Helper()
	v, err := r.store.GetVerification(context.Background(), r.acct, id)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}

// The fifth failed liveness attempt completes the verification at once
// through verifier.Complete: completed, webcam_appears_live false, the face
// verdict false without a score, one webhook delivery due now with the
// result's bytes. The link then refuses a sixth attempt and a submit as any
// completed link does.
func TestLastFailedLivenessAttemptCompletes(t *testing.T) {
	r := newExhaustRig(t)
	ctx := context.Background()
	id, tok := r.link()
	for left := 4; left >= 1; left-- {
		if ans := r.attempt(tok, false); ans.AttemptsLeft != left {
			t.Fatalf("attempts left %d, want %d", ans.AttemptsLeft, left)
		}
		if v := r.verification(id); v.Status != verifier.StatusStarted {
			t.Fatalf("with %d attempts left the verification is %s", left, v.Status)
		}
	}
	completedAt := r.now.Add(5 * time.Second)
	if ans := r.attempt(tok, false); ans.AttemptsLeft != 0 || len(ans.Failures) == 0 {
		t.Fatalf("last attempt %+v", ans)
	}
	v := r.verification(id)
	var res struct {
		Verification map[string]any `json:"verification"`
		LicenseData  map[string]any `json:"license_data"`
	}
	if err := json.Unmarshal(v.Result, &res); err != nil {
		t.Fatal(err)
	}
	ver := res.Verification
	if v.Status != verifier.StatusCompleted || !v.CompletedAt.Equal(completedAt) || ver["webcam_appears_live"] != false ||
		ver["webcam_face_matches_license_photo"] != false || ver["license_appears_real"] != true || res.LicenseData["dob"] == nil {
		t.Fatalf("%s at %v: %s", v.Status, v.CompletedAt, v.Result)
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
	r := newExhaustRig(t)
	ctx := context.Background()
	id, tok := r.link()
	for range 4 {
		r.attempt(tok, false)
	}
	if ans := r.attempt(tok, true); ans.AttemptsLeft != 0 {
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
