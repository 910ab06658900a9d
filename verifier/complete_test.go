package verifier_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// backend is one database under test and how to read all of it back.
type backend struct {
	store *sqlstore.DB
	// dump returns every stored value (hygiene_test.go).
	dump func(t *testing.T) []storedValue
}

var completionBackends = []struct {
	name string
	open func(t *testing.T) backend
}{
	{"sqlite", func(t *testing.T) backend {
		st, dir := openSQLiteStore(t)
		return backend{store: st, dump: func(t *testing.T) []storedValue { return dumpSQLite(t, dir) }}
	}},
	{"postgres", func(t *testing.T) backend {
		url := testkit.PostgresURL(t)
		return backend{store: openStore(t, url), dump: func(t *testing.T) []storedValue { return dumpPostgres(t, url) }}
	}},
}

// onBackends runs fn as a parallel subtest on each backend.
func onBackends(t *testing.T, fn func(t *testing.T, b backend)) {
	for _, b := range completionBackends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			fn(t, b.open(t))
		})
	}
}

// flow is an account on a store with the lifecycle service, a clock and a
// webhook worker delivering to an HTTPS receiver answering with respond.
type flow struct {
	t        *testing.T
	st       *sqlstore.DB
	clock    *testkit.Clock
	svc      *verifier.Verifications
	account  string
	receiver *webhooktest.Receiver
	worker   *webhook.Worker
}

func newFlow(t *testing.T, st *sqlstore.DB, log *slog.Logger, respond func(n int) int) *flow {
	t.Helper()
	clock := testkit.NewClock()
	sealer := seal.Ephemeral()
	r := webhooktest.NewReceiver(t, respond)
	secrets := verifier.WebhookSecrets{Store: st, Sealer: sealer, Now: clock.Now}
	return &flow{
		t: t, st: st, clock: clock, receiver: r,
		svc:     &verifier.Verifications{Store: st, Now: clock.Now, Plan: verifier.UnlimitedPlan, AllowLoopbackWebhooks: true},
		account: newAccount(t, st),
		worker:  parts.Worker(st, r.Pool, secrets, clock.Now, webhook.WorkerOptions{Now: clock.Now, Log: log}),
	}
}

// start creates a verification with opts through the lifecycle service
// (validation, template rules and all), opens its link (which starts
// nothing) and takes the end user's first step, so it is started.
func (f *flow) start(opts verifier.Options, externalID string) verifier.Verification {
	f.t.Helper()
	ctx := context.Background()
	url := f.receiver.URL
	opts.WebhookURL = &url
	req := verifier.CreateRequest{Options: opts}
	if externalID != "" {
		req.ExternalID = &externalID
	}
	c, err := f.svc.Create(ctx, f.account, req)
	if err != nil {
		f.t.Fatal(err)
	}
	v, err := f.svc.Open(ctx, c.Token)
	if err != nil {
		f.t.Fatal(err)
	}
	if v.Status != verifier.StatusPending {
		f.t.Fatalf("after open: %s, want pending", v.Status)
	}
	return startVerification(f.t, f.svc, f.account, v.ID)
}

// startVerification is the end user's first successful step, as the flow
// records it: pending → started with started_at.
func startVerification(t testing.TB, vs *verifier.Verifications, accountID, id string) verifier.Verification {
	t.Helper()
	v, err := vs.Transition(context.Background(), accountID, id, func(v *verifier.Verification, now time.Time) (verifier.Status, error) {
		v.StartedAt = now
		return verifier.StatusStarted, nil
	})
	if err != nil || v.Status != verifier.StatusStarted {
		t.Fatalf("start: %s %v", v.Status, err)
	}
	return v
}

// deliver runs the worker once and returns the bodies received so far.
func (f *flow) deliver(want int) []webhooktest.Request {
	f.t.Helper()
	if _, err := f.worker.RunOnce(context.Background()); err != nil {
		f.t.Fatal(err)
	}
	f.receiver.Wait(f.t, want, 10*time.Second)
	return f.receiver.Requests()
}

func ptr[T any](v T) *T { return &v }

func TestCompleteOnBothBackends(t *testing.T) {
	onBackends(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		f := newFlow(t, b.store, slog.New(slog.DiscardHandler), webhooktest.Always(200))
		v := f.start(verifier.Options{RequestedFields: ptr([]string{"first_names", "dob"}),
			EncryptionKeyMode: ptr("none")}, "order-77")

		f.clock.Advance(3 * time.Minute)
		done, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, goodOutcome(t))
		if err != nil {
			t.Fatal(err)
		}
		now := f.clock.Now().UTC().Truncate(time.Microsecond)
		if done.Status != verifier.StatusCompleted || !done.CompletedAt.Equal(now) || !done.UpdatedAt.Equal(now) {
			t.Errorf("completed: status %s, completed_at %v, updated_at %v; want completed at %v", done.Status, done.CompletedAt, done.UpdatedAt, now)
		}
		got, err := b.store.GetVerification(ctx, f.account, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		res := decode(t, got.Result)
		if res["request_id"] != v.ID || res["external_id"] != "order-77" {
			t.Errorf("stored result: %s", got.Result)
		}
		if ld := res["license_data"].(map[string]any); ld["first_names"] != holderFirst || ld["dob"] != holderDOB || len(ld) != 2 {
			t.Errorf("license_data = %v", ld)
		}

		// The webhook carries the stored document byte for byte.
		reqs := f.deliver(1)
		if len(reqs) != 1 || !bytes.Equal(reqs[0].Body, got.Result) {
			t.Fatalf("webhook bodies %d; first equals the stored result: %t", len(reqs), len(reqs) > 0 && bytes.Equal(reqs[0].Body, got.Result))
		}

		// A second completion is refused (409) and changes nothing.
		f.clock.Advance(time.Minute)
		other := goodOutcome(t)
		other.Live = false
		if _, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, other); !errors.Is(err, verifier.ErrInvalidTransition) {
			t.Fatalf("second Complete: %v, want ErrInvalidTransition", err)
		}
		again, _ := b.store.GetVerification(ctx, f.account, v.ID)
		if !bytes.Equal(again.Result, got.Result) || !again.CompletedAt.Equal(got.CompletedAt) {
			t.Error("a refused second Complete changed the verification")
		}
		if _, err := f.svc.DecideReview(ctx, f.account, v.ID, true, ""); !errors.Is(err, verifier.ErrInvalidTransition) {
			t.Errorf("DecideReview on a completed verification: %v, want ErrInvalidTransition", err)
		}
		if _, err := f.worker.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(f.receiver.Requests()); n != 1 {
			t.Errorf("%d webhook deliveries, want 1", n)
		}

		// Another account sees no such verification.
		stranger := newAccount(t, b.store)
		if _, err := verifier.Complete(ctx, b.store, f.clock.Now(), stranger, v.ID, goodOutcome(t)); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("other account: %v, want ErrNotFound", err)
		}
	})
}

func TestCompleteRefusals(t *testing.T) {
	onBackends(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		f := newFlow(t, b.store, slog.New(slog.DiscardHandler), webhooktest.Always(200))
		unchanged := func(t *testing.T, id string, status verifier.Status) {
			t.Helper()
			v, err := b.store.GetVerification(ctx, f.account, id)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != status || len(v.Result) != 0 || !v.CompletedAt.IsZero() {
				t.Errorf("verification changed: %s, result %q", v.Status, v.Result)
			}
		}

		t.Run("pending: never opened", func(t *testing.T) {
			c, err := f.svc.Create(ctx, f.account, verifier.CreateRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, c.ID, goodOutcome(t)); !errors.Is(err, verifier.ErrInvalidTransition) {
				t.Fatalf("err = %v, want ErrInvalidTransition", err)
			}
			unchanged(t, c.ID, verifier.StatusPending)
		})
		t.Run("link lifetime over", func(t *testing.T) {
			v := f.start(verifier.Options{LifetimeDays: ptr(1)}, "")
			if _, err := verifier.Complete(ctx, b.store, v.ExpiresAt, f.account, v.ID, goodOutcome(t)); !errors.Is(err, verifier.ErrInvalidTransition) {
				t.Fatalf("err = %v, want ErrInvalidTransition", err)
			}
			unchanged(t, v.ID, verifier.StatusStarted)
			// A microsecond earlier it still completes.
			if _, err := verifier.Complete(ctx, b.store, v.ExpiresAt.Add(-time.Microsecond), f.account, v.ID, goodOutcome(t)); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("impossible outcome", func(t *testing.T) {
			v := f.start(verifier.Options{}, "")
			o := goodOutcome(t)
			o.FaceMatch.Tier = "maybe"
			if _, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, o); !errors.Is(err, verifier.ErrInvalidOutcome) {
				t.Fatalf("err = %v, want ErrInvalidOutcome", err)
			}
			unchanged(t, v.ID, verifier.StatusStarted)
		})
		t.Run("canceled", func(t *testing.T) {
			v := f.start(verifier.Options{}, "")
			if _, err := f.svc.Cancel(ctx, f.account, v.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, goodOutcome(t)); !errors.Is(err, verifier.ErrInvalidTransition) {
				t.Fatalf("err = %v, want ErrInvalidTransition", err)
			}
			unchanged(t, v.ID, verifier.StatusCanceled)
		})
	})
}

// TestManualReviewThenDecision: an inconclusive match the end user sent to
// review completes to manual_review (webhook at once); the human decision
// moves it to completed with the verdict, keeping the sealed members as
// they were, and delivers again.
func TestManualReviewThenDecision(t *testing.T) {
	_, pubPEM, _ := encryptionKeys(t)
	priv := testRSA
	onBackends(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		f := newFlow(t, b.store, slog.New(slog.DiscardHandler), webhooktest.Always(200))
		for _, approved := range []bool{true, false} {
			v := f.start(verifier.Options{RequestedFields: ptr([]string{"last_name"}), EncryptionKeyMode: ptr("custom"),
				EncryptionKey: &pubPEM}, "")
			o := goodOutcome(t)
			o.FaceMatch = match.Result{Tier: match.PossibleMatch, Confidence: 0.62, Cosine: 0.41}
			o.ReviewRequested = true
			review, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, o)
			if err != nil {
				t.Fatal(err)
			}
			if review.Status != verifier.StatusManualReview {
				t.Fatalf("status %s, want manual_review", review.Status)
			}
			first := decode(t, review.Result)
			if ver := first["verification"].(map[string]any); ver["webcam_face_matches_license_photo"] != "undetermined" || ver["manual_review_requested"] != true {
				t.Errorf("manual_review verification = %v", ver)
			}
			n := len(f.receiver.Requests())
			if reqs := f.deliver(n + 1); !bytes.Equal(reqs[n].Body, review.Result) {
				t.Error("manual_review webhook is not the stored result")
			}

			f.clock.Advance(2 * time.Hour)
			// An approval carries the reviewer's reason; a rejection here none.
			reason := map[bool]string{true: "Same person: older photo,\nsame scar above the eyebrow", false: ""}[approved]
			decided, err := f.svc.DecideReview(ctx, f.account, v.ID, approved, reason)
			if err != nil {
				t.Fatal(err)
			}
			if decided.Status != verifier.StatusCompleted || !decided.CompletedAt.Equal(f.clock.Now().UTC().Truncate(time.Microsecond)) {
				t.Errorf("after decision: %s at %v", decided.Status, decided.CompletedAt)
			}
			final := decode(t, decided.Result)
			ver := final["verification"].(map[string]any)
			if ver["webcam_face_matches_license_photo"] != approved || ver["manual_review_requested"] != true || ver["face_match_score"] != "possible_match" {
				t.Errorf("decided verification = %v", ver)
			}
			if got, ok := ver["review_reason"]; (reason == "" && ok) || (reason != "" && got != reason) {
				t.Errorf("review_reason = %v (present %v), want %q", got, ok, reason)
			}
			for _, k := range []string{"license_data", "encryption", "encryption_key", "request_id"} {
				a, _ := json.Marshal(first[k])
				z, _ := json.Marshal(final[k])
				if !bytes.Equal(a, z) {
					t.Errorf("%s changed by the decision", k)
				}
			}
			key, err := client.PrivateKey(rsaPrivatePEM(t, priv))
			if err != nil {
				t.Fatal(err)
			}
			opened, err := client.Decrypt(decided.Result, key)
			if err != nil {
				t.Fatal(err)
			}
			if ld := decode(t, opened)["license_data"]; ld.(map[string]any)["last_name"] != holderLast {
				t.Errorf("decrypted license_data after the decision = %v", ld)
			}
			if reqs := f.deliver(n + 2); !bytes.Equal(reqs[n+1].Body, decided.Result) {
				t.Error("completed webhook is not the decided result")
			}
			if _, err := f.svc.DecideReview(ctx, f.account, v.ID, !approved, ""); !errors.Is(err, verifier.ErrInvalidTransition) {
				t.Errorf("second decision: %v, want ErrInvalidTransition", err)
			}
		}
	})
}

func TestValidateReviewReason(t *testing.T) {
	for _, ok := range []string{"", "Same person", "Line one\nline two", strings.Repeat("é", verifier.MaxReviewReason)} {
		if err := verifier.ValidateReviewReason(ok); err != nil {
			t.Errorf("ValidateReviewReason(%q) = %v", ok, err)
		}
	}
	for in, code := range map[string]string{
		strings.Repeat("a", verifier.MaxReviewReason+1): "too_long",
		"tab\there": "control_character",
		"nul\x00":   "control_character",
		"sep\u2028": "control_character",
		"bad \xff":  "invalid_utf8",
	} {
		var ve *verifier.ValidationError
		if err := verifier.ValidateReviewReason(in); !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != code || ve.Fields[0].Field != "reason" {
			t.Errorf("ValidateReviewReason(%.20q) = %v, want %s", in, err, code)
		}
	}
}

func TestSetFaceVerdictRefusesNonPayloads(t *testing.T) {
	for _, in := range []string{``, `null`, `[]`, `{}`, `{"verification":null}`, `{"verification":[1]}`, `{"verification":1}`} {
		if _, err := verifier.SetFaceVerdict([]byte(in), true); !errors.Is(err, verifier.ErrMalformedResult) {
			t.Errorf("SetFaceVerdict(%q) = %v, want ErrMalformedResult", in, err)
		}
	}
	out, err := verifier.SetFaceVerdict([]byte(`{"request_id":"r","verification":{"webcam_face_matches_license_photo":"undetermined","over_18":true},"license_data":{"x":1}}`), false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"license_data":{"x":1},"request_id":"r","verification":{"over_18":true,"webcam_face_matches_license_photo":false}}`
	if string(out) != want {
		t.Errorf("got %s\nwant %s", out, want)
	}
}

// FuzzSetFaceVerdict: whatever is stored, the edit never panics, and when
// it succeeds the verdict is the one asked for and the output is JSON.
func FuzzSetFaceVerdict(f *testing.F) {
	f.Add([]byte(`{"request_id":"r","verification":{"webcam_face_matches_license_photo":"undetermined"}}`), true)
	f.Add([]byte(`{"verification":{}}`), false)
	f.Add([]byte(`{"verification":{"a":[1,{"b":null}]},"license_data":{"version":1}}`), true)
	f.Fuzz(func(t *testing.T, in []byte, matches bool) {
		out, err := verifier.SetFaceVerdict(in, matches)
		if err != nil {
			return
		}
		var got struct {
			Verification map[string]json.RawMessage `json:"verification"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output is not JSON: %v", err)
		}
		var verdict bool
		if err := json.Unmarshal(got.Verification["webcam_face_matches_license_photo"], &verdict); err != nil || verdict != matches {
			t.Fatalf("verdict %s, want %t", got.Verification["webcam_face_matches_license_photo"], matches)
		}
	})
}

// TestCompleteConcurrent: several completions racing (a double submit, two
// instances) end with exactly one winner, one stored result and one
// webhook; the others get the 409 error.
func TestCompleteConcurrent(t *testing.T) {
	onBackends(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		f := newFlow(t, b.store, slog.New(slog.DiscardHandler), webhooktest.Always(200))
		v := f.start(verifier.Options{}, "")
		const racers = 4
		type outcome struct {
			result []byte
			err    error
		}
		outcomes := make(chan outcome, racers)
		good := goodOutcome(t)
		for range racers {
			go func() {
				done, err := verifier.Complete(ctx, b.store, f.clock.Now(), f.account, v.ID, good)
				outcomes <- outcome{done.Result, err}
			}()
		}
		var won []byte
		for range racers {
			o := <-outcomes
			err, res := o.err, o.result
			switch {
			case err == nil && won == nil:
				won = res
			case err == nil:
				t.Error("two completions succeeded")
			case !errors.Is(err, verifier.ErrInvalidTransition):
				t.Errorf("losing completion: %v, want ErrInvalidTransition", err)
			}
		}
		if won == nil {
			t.Fatal("no completion succeeded")
		}
		stored, err := b.store.GetVerification(ctx, f.account, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(stored.Result, won) {
			t.Error("stored result is not the winner's")
		}
		reqs := f.deliver(1)
		if _, err := f.worker.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(f.receiver.Requests()); n != 1 || !bytes.Equal(reqs[0].Body, won) {
			t.Errorf("%d webhooks; want exactly the winner's", n)
		}
	})
}
