package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// WebhookStore is what the store offers the webhook worker: the store, its
// outbox, and the hook UpdateVerification calls after committing an enqueue.
type WebhookStore interface {
	verifier.Store
	webhook.Queue
	OnWebhookEnqueued(fn func())
}

// RunWebhooks checks webhook delivery end to end through a backend's real
// store, its outbox and the real worker and sender, to real HTTPS receivers
// on loopback (the test switch on), with an injected clock. newStore makes
// a fresh, migrated store. (A restart between attempts is RunQueue's
// CrashBetweenAttempts.)
func RunWebhooks(t *testing.T, newStore func(t *testing.T) WebhookStore) {
	tests := []struct {
		name string
		fn   func(t *testing.T, e *hookEnv)
	}{
		{"CompletionDelivers", testHookCompletion},
		{"ManualReviewThenCompleted", testHookManualReview},
		{"FailureThenSuccess", testHookFailureThenSuccess},
		{"ThreeFailuresFail", testHookThreeFailures},
		{"NoDeliveryWithoutCause", testHookNoDelivery},
		{"DeletedSendsNothing", testHookDeleted},
		{"SSRFRefusalIsLogged", testHookSSRF},
		{"SecretRotation", testHookRotation},
		{"PurgeTakesOutboxCopies", testHookPurge},
		{"PurgeThenRetryFailed", testHookPurgeRetry},
		{"PurgeEmptiesResponseSnippets", testHookPurgeSnippets},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			e := &hookEnv{t: t, s: st, clock: testkit.NewClock(), sealer: seal.Ephemeral()}
			st.OnWebhookEnqueued(func() { e.wakes.Add(1) })
			e.log = &testkit.LogBuffer{}
			tc.fn(t, e)
		})
	}
}

// hookEnv is one subtest's world: a database, a clock, a receiver, an
// account with a known signing secret.
type hookEnv struct {
	t       *testing.T
	s       WebhookStore
	clock   *testkit.Clock
	sealer  *seal.Sealer // under a random server key
	r       *webhooktest.Receiver
	wakes   atomic.Int64
	log     *testkit.LogBuffer
	account verifier.Account
	secret  string // the account's current signing secret, in plain text
}

// setup starts a receiver answering with respond and makes the account with
// a rotated-in secret.
func (e *hookEnv) setup(respond func(n int) int) {
	e.t.Helper()
	e.setupWith(webhooktest.NewReceiver(e.t, respond))
}

// setupWith is setup with the receiver r.
func (e *hookEnv) setupWith(r *webhooktest.Receiver) {
	e.t.Helper()
	e.r = r
	e.account = mustAccount(e.t, e.s)
	secret, _, err := e.secrets(e.s).Rotate(context.Background(), e.account.ID)
	if err != nil {
		e.t.Fatalf("Rotate: %v", err)
	}
	e.secret = secret
}

func (e *hookEnv) secrets(s verifier.Store) verifier.WebhookSecrets {
	return verifier.WebhookSecrets{Store: s, Sealer: e.sealer, Now: e.clock.Now}
}

// worker is a fresh worker on s's outbox, as a (re)started server builds it.
func (e *hookEnv) worker(s WebhookStore, allowLoopback bool) *webhook.Worker {
	sender := webhook.NewSender(webhook.SenderOptions{AllowLoopback: allowLoopback, RootCAs: e.r.Pool,
		Secrets: e.secrets(s), Now: e.clock.Now})
	return webhook.NewWorker(s, sender, webhook.WorkerOptions{Now: e.clock.Now,
		Log: slog.New(slog.NewTextHandler(e.log, nil))})
}

// run sets the clock to at and runs w once, failing unless it attempted want.
func (e *hookEnv) run(w *webhook.Worker, at time.Time, want int) {
	e.t.Helper()
	e.clock.Set(at)
	n, err := w.RunOnce(context.Background())
	if err != nil || n != want {
		e.t.Fatalf("at %v: RunOnce = %d, %v; want %d attempts", at, n, err, want)
	}
}

// newHookVerification creates a started verification of the account that
// delivers to the receiver (url "" for none).
func (e *hookEnv) newHookVerification(url string) verifier.Verification {
	e.t.Helper()
	v := newVerification(e.account.ID)
	v.WebhookURL = url
	v.WebhookHeaders = map[string]string{"Authorization": "Bearer receiver-token", "X-Shop": "42"}
	v.CreatedAt, v.UpdatedAt, v.ExpiresAt = e.clock.Now(), e.clock.Now(), e.clock.Now().Add(14*24*time.Hour)
	mustVerification(e.t, e.s, v)
	return e.update(v.ID, func(x *verifier.Verification) { x.Status, x.StartedAt = verifier.StatusStarted, e.clock.Now() })
}

func (e *hookEnv) update(id string, edit func(*verifier.Verification)) verifier.Verification {
	e.t.Helper()
	v, err := e.s.UpdateVerification(context.Background(), e.account.ID, id, func(x *verifier.Verification) error {
		edit(x)
		x.UpdatedAt = e.clock.Now()
		return nil
	})
	if err != nil {
		e.t.Fatalf("UpdateVerification: %v", err)
	}
	return v
}

// finish moves v to status (completed or manual_review) with its result.
// The result's spacing is unusual on purpose: deliveries must carry the
// stored bytes, not a re-encoding.
func (e *hookEnv) finish(id string, status verifier.Status) verifier.Verification {
	e.t.Helper()
	result := fmt.Appendf(nil, `{"request_id": %q,  "verification": {"over_18": true, "manual_review_requested": %t}}`,
		id, status == verifier.StatusManualReview)
	return e.update(id, func(x *verifier.Verification) {
		x.Status, x.CompletedAt, x.Result = status, e.clock.Now(), json.RawMessage(result)
	})
}

// finishWithPII creates a verification delivering to the receiver and
// completes it with a result that carries personal data (piiStrings).
func (e *hookEnv) finishWithPII() verifier.Verification {
	e.t.Helper()
	v := e.newHookVerification(e.r.URL)
	result := fmt.Appendf(nil, `{"request_id":%q,"verification":{"over_18":true},"license_data":{"first_name":"Annabel","document_number":"D1234567"},`+
		`"license_photo":"data:image/jpeg;base64,QUJD","phone_verification":{"verified":true,"lookup":{"carrier":"Example Mobile"}}}`, v.ID)
	return e.update(v.ID, func(x *verifier.Verification) {
		x.Status, x.CompletedAt, x.Result = verifier.StatusCompleted, e.clock.Now(), json.RawMessage(result)
	})
}

// purge purges each of vs through the domain (verifier's PurgePII, which
// the API's purge and the scheduled PurgeDue both use).
func (e *hookEnv) purge(vs ...verifier.Verification) {
	e.t.Helper()
	domain := &verifier.Verifications{Store: e.s, Now: e.clock.Now}
	for _, v := range vs {
		if _, err := domain.PurgePII(context.Background(), e.account.ID, v.ID); err != nil {
			e.t.Fatalf("PurgePII: %v", err)
		}
	}
}

// piiStrings are the personal data in finishWithPII's results.
var piiStrings = []string{"Annabel", "D1234567", "license_photo", "Example Mobile"}

// webhookStatus reads the verification's webhook_status by GET and by list.
func (e *hookEnv) webhookStatus(id string) string {
	e.t.Helper()
	v, err := e.s.GetVerification(context.Background(), e.account.ID, id)
	if err != nil {
		e.t.Fatalf("GetVerification: %v", err)
	}
	page, err := e.s.ListVerifications(context.Background(), e.account.ID, verifier.VerificationFilter{Limit: verifier.MaxListLimit})
	if err != nil {
		e.t.Fatalf("ListVerifications: %v", err)
	}
	for _, item := range page.Items {
		if item.ID == id && item.WebhookStatus != v.WebhookStatus {
			e.t.Errorf("webhook_status: GET %q, list %q", v.WebhookStatus, item.WebhookStatus)
		}
	}
	return v.WebhookStatus
}

// checkRequests asserts the receiver got n attempts of one delivery of v:
// v's stored result byte for byte, one delivery ID, attempts 1..n, the
// custom headers, JSON, and a signature that verifies with the secret.
func (e *hookEnv) checkRequests(v verifier.Verification, n int) {
	e.t.Helper()
	reqs := e.r.Requests()
	if len(reqs) != n {
		e.t.Fatalf("receiver got %d requests, want %d", len(reqs), n)
	}
	for i, req := range reqs {
		if !bytes.Equal(req.Body, v.Result) {
			e.t.Errorf("request %d body %q, want the stored result %q", i+1, req.Body, v.Result)
		}
		if req.Header.Get(webhook.HeaderDeliveryID) != reqs[0].Header.Get(webhook.HeaderDeliveryID) {
			e.t.Errorf("request %d changed the delivery ID", i+1)
		}
		if got := req.Header.Get(webhook.HeaderAttempt); got != strconv.Itoa(i+1) {
			e.t.Errorf("request %d: attempt header %q", i+1, got)
		}
		if req.Header.Get("Authorization") != "Bearer receiver-token" || req.Header.Get("X-Shop") != "42" ||
			req.Header.Get("Content-Type") != "application/json" {
			e.t.Errorf("request %d headers %v", i+1, req.Header)
		}
		// The clock has jumped past the signing times; the tolerance only
		// has to cover the jumps.
		if err := client.VerifySignature([]byte(e.secret), req.Header.Get(webhook.HeaderSignature), req.Body, e.clock.Now(), 48*time.Hour); err != nil {
			e.t.Errorf("request %d signature: %v", i+1, err)
		}
	}
}

func (e *hookEnv) history(id string) []webhook.DeliveryLog {
	e.t.Helper()
	h, err := e.s.History(context.Background(), id)
	if err != nil {
		e.t.Fatalf("History: %v", err)
	}
	return h
}

func testHookCompletion(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusOK))
	v := e.newHookVerification(e.r.URL)
	if e.wakes.Load() != 0 || e.webhookStatus(v.ID) != "" {
		t.Fatalf("before completion: %d wakes, webhook_status %q", e.wakes.Load(), e.webhookStatus(v.ID))
	}
	done := e.finish(v.ID, verifier.StatusCompleted)
	if done.WebhookStatus != webhook.StatePending || e.webhookStatus(v.ID) != webhook.StatePending || e.wakes.Load() != 1 {
		t.Fatalf("after completion: returned %q, stored %q, %d wakes; want pending, pending, 1",
			done.WebhookStatus, e.webhookStatus(v.ID), e.wakes.Load())
	}
	// A later update that keeps the status enqueues nothing more.
	e.update(v.ID, func(x *verifier.Verification) { x.PIIPurgedAt = e.clock.Now() })
	w := e.worker(e.s, true)
	e.run(w, e.clock.Now(), 1)
	e.run(w, e.clock.Now().Add(time.Hour), 0)
	e.checkRequests(done, 1)
	if got := e.webhookStatus(v.ID); got != webhook.StateDelivered {
		t.Fatalf("webhook_status %q, want delivered", got)
	}
	if h := e.history(v.ID); len(h) != 1 || h[0].State != webhook.StateDelivered || len(h[0].Attempts) != 1 || h[0].Attempts[0].StatusCode != 200 {
		t.Fatalf("history %+v", h)
	}
}

func testHookManualReview(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusOK))
	v := e.newHookVerification(e.r.URL)
	review := e.finish(v.ID, verifier.StatusManualReview)
	w := e.worker(e.s, true)
	e.run(w, e.clock.Now(), 1) // fires at once, before any human review
	e.checkRequests(review, 1)
	// The human decision delivers the final result as a second delivery.
	e.clock.Advance(time.Hour)
	final := e.finish(v.ID, verifier.StatusCompleted)
	if e.webhookStatus(v.ID) != webhook.StatePending {
		t.Fatalf("webhook_status after the decision %q, want pending (latest delivery)", e.webhookStatus(v.ID))
	}
	e.run(w, e.clock.Now(), 1)
	reqs := e.r.Requests()
	if len(reqs) != 2 || !bytes.Equal(reqs[1].Body, final.Result) || reqs[1].Header.Get(webhook.HeaderDeliveryID) == reqs[0].Header.Get(webhook.HeaderDeliveryID) {
		t.Fatalf("second delivery: %d requests", len(reqs))
	}
	if h := e.history(v.ID); len(h) != 2 || e.webhookStatus(v.ID) != webhook.StateDelivered {
		t.Fatalf("history %d deliveries, webhook_status %q", len(h), e.webhookStatus(v.ID))
	}
}

func testHookFailureThenSuccess(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.FailFirst(1, http.StatusInternalServerError))
	v := e.newHookVerification(e.r.URL)
	done := e.finish(v.ID, verifier.StatusCompleted)
	w := e.worker(e.s, true)
	t0 := e.clock.Now()
	e.run(w, t0, 1)
	if got := e.webhookStatus(v.ID); got != webhook.StatePending {
		t.Fatalf("after one failure webhook_status %q, want pending", got)
	}
	e.run(w, t0.Add(5*time.Second-time.Microsecond), 0) // attempt 2 is due 5 s after the failure
	e.run(w, t0.Add(5*time.Second), 1)
	e.run(w, t0.Add(time.Hour), 0)
	e.checkRequests(done, 2)
	if got := e.webhookStatus(v.ID); got != webhook.StateDelivered {
		t.Fatalf("webhook_status %q, want delivered", got)
	}
}

func testHookThreeFailures(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusServiceUnavailable))
	v := e.newHookVerification(e.r.URL)
	done := e.finish(v.ID, verifier.StatusCompleted)
	w := e.worker(e.s, true)
	t0 := e.clock.Now()
	e.run(w, t0, 1)
	e.run(w, t0.Add(5*time.Second), 1)
	if h := e.history(v.ID); !h[0].NextAttemptAt.Equal(t0.Add(20 * time.Second).UTC().Truncate(time.Microsecond)) {
		t.Fatalf("attempt 3 due %v, want 15 s after the second failure", h[0].NextAttemptAt)
	}
	e.run(w, t0.Add(20*time.Second-time.Microsecond), 0)
	e.run(w, t0.Add(20*time.Second), 1)
	e.run(w, t0.Add(24*time.Hour), 0)
	e.checkRequests(done, 3)
	if got := e.webhookStatus(v.ID); got != webhook.StateFailed {
		t.Fatalf("webhook_status %q, want failed", got)
	}
}

func testHookNoDelivery(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusOK))
	ctx := context.Background()
	// Completed without a URL.
	noURL := e.newHookVerification("")
	e.finish(noURL.ID, verifier.StatusCompleted)
	// Canceled.
	canceled := e.newHookVerification(e.r.URL)
	e.update(canceled.ID, func(x *verifier.Verification) { x.Status = verifier.StatusCanceled })
	// Expired by the sweeper.
	expiring := newVerification(e.account.ID)
	expiring.WebhookURL, expiring.ExpiresAt = e.r.URL, e.clock.Now()
	mustVerification(t, e.s, expiring)
	if ids, err := e.s.ExpireDue(ctx, e.clock.Now(), 10); err != nil || len(ids) != 1 {
		t.Fatalf("ExpireDue: %v, %v", ids, err)
	}
	// A failed transition enqueues nothing either.
	if _, err := e.s.UpdateVerification(ctx, e.account.ID, expiring.ID, func(x *verifier.Verification) error {
		x.Status, x.Result = verifier.StatusCompleted, json.RawMessage(`{"request_id":"x","verification":{}}`)
		return nil
	}); err == nil {
		t.Fatal("expired → completed was allowed")
	}
	w := e.worker(e.s, true)
	e.run(w, e.clock.Now().Add(time.Hour), 0)
	if n := len(e.r.Requests()); n != 0 || e.wakes.Load() != 0 {
		t.Fatalf("%d requests, %d wakes; want none", n, e.wakes.Load())
	}
	for _, id := range []string{noURL.ID, canceled.ID, expiring.ID} {
		if got := e.webhookStatus(id); got != "" {
			t.Errorf("%s: webhook_status %q, want empty", id, got)
		}
	}
}

func testHookDeleted(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusInternalServerError))
	ctx := context.Background()
	// Deleted before the first attempt.
	first := e.newHookVerification(e.r.URL)
	e.finish(first.ID, verifier.StatusCompleted)
	if err := e.s.DeleteVerification(ctx, e.account.ID, first.ID, e.clock.Now()); err != nil {
		t.Fatalf("DeleteVerification: %v", err)
	}
	w := e.worker(e.s, true)
	e.run(w, e.clock.Now(), 0)
	// Deleted with a retry pending.
	second := e.newHookVerification(e.r.URL)
	e.finish(second.ID, verifier.StatusCompleted)
	e.run(w, e.clock.Now(), 1)
	if err := e.s.DeleteVerification(ctx, e.account.ID, second.ID, e.clock.Now()); err != nil {
		t.Fatalf("DeleteVerification: %v", err)
	}
	e.run(w, e.clock.Now().Add(time.Hour), 0)
	if n := len(e.r.Requests()); n != 1 {
		t.Fatalf("receiver got %d requests, want only the attempt made before the delete", n)
	}
	for _, id := range []string{first.ID, second.ID} {
		if h := e.history(id); len(h) != 0 {
			t.Errorf("deleted %s keeps deliveries %+v", id, h)
		}
	}
	// Another account cannot delete (and so cannot forget) these.
	other := mustAccount(t, e.s)
	third := e.newHookVerification(e.r.URL)
	e.finish(third.ID, verifier.StatusCompleted)
	wantErr(t, "delete another account's", e.s.DeleteVerification(ctx, other.ID, third.ID, e.clock.Now()), verifier.ErrNotFound)
	if h := e.history(third.ID); len(h) != 1 {
		t.Fatalf("another account's delete touched the deliveries: %+v", h)
	}
}

func testHookSSRF(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusOK))
	port := e.r.URL[strings.LastIndex(e.r.URL, ":")+1:]
	port = port[:strings.Index(port, "/")]
	reasons := map[string]string{ // target → the reason logged and kept in the delivery log
		e.r.URL:                                     "loopback address",
		"https://[::1]:" + port + "/hook":           "loopback address",
		"https://localhost:" + port + "/hook":       "loopback name", // refused by its name before DNS (webhook.HostRefusal)
		"https://10.0.0.1/hook":                     "private address (RFC 1918)",
		"https://169.254.169.254/latest/meta-data/": "link-local address",
	}
	ids := map[string]string{}
	for url := range reasons {
		v := e.newHookVerification(url)
		e.finish(v.ID, verifier.StatusCompleted)
		ids[url] = v.ID
	}
	w := e.worker(e.s, false) // production: the test switch off
	e.run(w, e.clock.Now(), len(reasons))
	if n := len(e.r.Requests()); n != 0 {
		t.Fatalf("a non-public target got %d requests with the switch off", n)
	}
	logged := e.log.String()
	for url, reason := range reasons {
		h := e.history(ids[url])
		if len(h) != 1 || len(h[0].Attempts) != 1 || !strings.Contains(h[0].Attempts[0].Error, reason) || h[0].Attempts[0].StatusCode != 0 {
			t.Errorf("%s: delivery log %+v, want refused: %s", url, h, reason)
		}
		if !strings.Contains(logged, "verification_id="+ids[url]) {
			t.Errorf("%s: the refusal was not logged", url)
		}
	}
	if !strings.Contains(logged, "webhook attempt failed") || !strings.Contains(logged, "link-local address") ||
		!strings.Contains(logged, "private address") || !strings.Contains(logged, "loopback address") {
		t.Fatalf("refusals not logged with their reasons: %s", logged)
	}
}

func testHookRotation(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.Always(http.StatusOK))
	ctx := context.Background()
	old := e.secret
	secret, keys, err := e.secrets(e.s).Rotate(ctx, e.account.ID)
	if err != nil || secret == old || !strings.HasPrefix(secret, webhook.SecretPrefix) ||
		!keys.PreviousUntil.Equal(e.clock.Now().Add(webhook.RotationGrace)) {
		t.Fatalf("Rotate: %q, %+v, %v", secret, keys, err)
	}
	stored, err := e.s.GetAccount(ctx, e.account.ID)
	if err != nil || strings.Contains(stored.WebhookSecret+stored.WebhookSecretPrevious, secret[len(webhook.SecretPrefix):]) ||
		stored.WebhookSecret != keys.Current || stored.WebhookSecretPrevious != keys.Previous ||
		!stored.WebhookSecretPreviousUntil.Equal(keys.PreviousUntil) {
		t.Fatalf("stored keys %+v, %v; want the sealed keys, no plain secret", stored, err)
	}
	w := e.worker(e.s, true)
	for i, at := range []time.Time{e.clock.Now(), e.clock.Now().Add(webhook.RotationGrace)} {
		e.clock.Set(at)
		v := e.newHookVerification(e.r.URL)
		e.finish(v.ID, verifier.StatusCompleted)
		e.run(w, at, 1)
		req := e.r.Requests()[i]
		sig := req.Header.Get(webhook.HeaderSignature)
		if err := client.VerifySignature([]byte(secret), sig, req.Body, at, time.Minute); err != nil {
			t.Errorf("delivery %d: new secret: %v", i, err)
		}
		inGrace := i == 0
		if err := client.VerifySignature([]byte(old), sig, req.Body, at, time.Minute); (err == nil) != inGrace {
			t.Errorf("delivery %d: old secret verifies %v, want %v (grace %v)", i, err == nil, inGrace, webhook.RotationGrace)
		}
	}
	// An account that never rotated gets a first secret at its first
	// delivery: nothing leaves unsigned.
	fresh := mustAccount(t, e.s)
	got, err := e.secrets(e.s).SigningSecrets(ctx, fresh.ID)
	if err != nil || len(got) != 1 || !bytes.HasPrefix(got[0], []byte(webhook.SecretPrefix)) {
		t.Fatalf("first secret: %q, %v", got, err)
	}
	again, err := e.secrets(e.s).SigningSecrets(ctx, fresh.ID)
	if err != nil || len(again) != 1 || !bytes.Equal(again[0], got[0]) {
		t.Fatalf("the first secret changed: %q, %v", again, err)
	}
}

// A purge (verifier's PurgePII, which the API's purge and the scheduled
// PurgeDue both use) takes the outbox's copies in its transaction: a
// delivered payload is emptied (headers too); one still to be sent (here
// between retries) keeps its headers and is sent as the purged result, the
// outcome without personal data; another verification's delivery is not
// touched.
func testHookPurge(t *testing.T, e *hookEnv) {
	e.setup(func(n int) int {
		if n == 2 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	w := e.worker(e.s, true)
	t0 := e.clock.Now()
	delivered := e.finishWithPII()
	e.run(w, t0, 1)
	retrying := e.finishWithPII()
	e.run(w, t0, 1) // 503: due again 5 s later
	other := e.finishWithPII()
	e.purge(delivered, retrying)
	payload := func(id string) webhook.Delivery {
		t.Helper()
		h := e.history(id)
		if len(h) != 1 {
			t.Fatalf("%s: %d deliveries", id, len(h))
		}
		return h[0].Delivery
	}
	if d := payload(delivered.ID); len(d.Payload) != 0 || len(d.Headers) != 0 || d.State != webhook.StateDelivered {
		t.Errorf("delivered after purge: state %s, payload %q, headers %v", d.State, d.Payload, d.Headers)
	}
	want, err := verifier.PurgeResult(retrying.Result)
	if err != nil {
		t.Fatal(err)
	}
	if d := payload(retrying.ID); !bytes.Equal(d.Payload, want) || d.Headers["X-Shop"] != "42" || d.State != webhook.StatePending {
		t.Errorf("retrying after purge: state %s, payload %s, headers %v; want the purged result %s", d.State, d.Payload, d.Headers, want)
	}
	for _, s := range piiStrings {
		if bytes.Contains(payload(retrying.ID).Payload, []byte(s)) {
			t.Errorf("the pending delivery keeps %q after the purge", s)
		}
	}
	if d := payload(other.ID); !bytes.Equal(d.Payload, other.Result) {
		t.Errorf("another verification's delivery changed: %s", d.Payload)
	}
	// The retry sends the purged result, signed; the other its own bytes.
	e.run(w, t0.Add(5*time.Second), 2)
	reqs := e.r.Requests()
	if len(reqs) != 4 {
		t.Fatalf("receiver got %d requests, want 4", len(reqs))
	}
	sent := map[string][]byte{}
	for _, r := range reqs[2:] {
		if err := client.VerifySignature([]byte(e.secret), r.Header.Get(webhook.HeaderSignature), r.Body, e.clock.Now(), time.Hour); err != nil {
			t.Errorf("signature: %v", err)
		}
		var b struct {
			RequestID string `json:"request_id"`
		}
		_ = json.Unmarshal(r.Body, &b)
		sent[b.RequestID] = r.Body
	}
	if !bytes.Equal(sent[retrying.ID], want) || !bytes.Equal(sent[other.ID], other.Result) {
		t.Errorf("sent after the purge:\n%s\n%s", sent[retrying.ID], sent[other.ID])
	}
	if got := e.webhookStatus(retrying.ID); got != webhook.StateDelivered {
		t.Errorf("webhook_status after the retry %q, want delivered", got)
	}
}

// A purge empties, in its transaction, the response snippets of every
// attempt of the verification's deliveries, delivered or between retries:
// a receiver may echo the payload back, personal data included. The rest
// of the attempt log stays, and another verification's snippets are kept.
func testHookPurgeSnippets(t *testing.T, e *hookEnv) {
	e.setupWith(webhooktest.NewEchoReceiver(t, func(n int) int {
		if n == 1 || n == 3 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}))
	w := e.worker(e.s, true)
	t0 := e.clock.Now()
	delivered := e.finishWithPII()
	e.run(w, t0, 1)                    // 503
	e.run(w, t0.Add(5*time.Second), 1) // 200: delivered
	retrying := e.finishWithPII()
	e.run(w, t0.Add(5*time.Second), 1) // 503: due again 5 s later
	other := e.finishWithPII()
	e.run(w, t0.Add(5*time.Second), 1) // 200
	attempts := func(id string) []webhook.AttemptRecord {
		t.Helper()
		h := e.history(id)
		if len(h) != 1 {
			t.Fatalf("%s: %d deliveries", id, len(h))
		}
		return h[0].Attempts
	}
	// The receiver echoed the personal data into the log.
	for _, v := range []verifier.Verification{delivered, retrying, other} {
		for _, a := range attempts(v.ID) {
			if !strings.Contains(a.Snippet, "Annabel") {
				t.Fatalf("%s attempt %d: snippet %q does not echo the payload", v.ID, a.Attempt, a.Snippet)
			}
		}
	}
	e.purge(delivered, retrying)
	for v, codes := range map[string][]int{delivered.ID: {503, 200}, retrying.ID: {503}} {
		got := attempts(v)
		if len(got) != len(codes) {
			t.Fatalf("%s: %d attempts after the purge, want %d", v, len(got), len(codes))
		}
		for i, a := range got {
			if a.Snippet != "" || a.Attempt != i+1 || a.StatusCode != codes[i] {
				t.Errorf("%s attempt %d after the purge: status %d, snippet %q; want %d and no snippet", v, a.Attempt, a.StatusCode, a.Snippet, codes[i])
			}
		}
	}
	for _, a := range attempts(other.ID) {
		if !strings.Contains(a.Snippet, "Annabel") {
			t.Errorf("another verification's snippet changed: %q", a.Snippet)
		}
	}
}

// A delivery that failed for good before the purge stays open to Retry,
// and the retry sends the purged result: no personal data leaves after
// the purge, and the customer can still get the outcome.
func testHookPurgeRetry(t *testing.T, e *hookEnv) {
	e.setup(webhooktest.FailFirst(3, http.StatusServiceUnavailable))
	ctx := context.Background()
	v := e.newHookVerification(e.r.URL)
	result := fmt.Appendf(nil, `{"request_id":%q,"verification":{"over_21":true},"license_data":{"last_name":"Quillfeather"},"license_photo":"data:image/jpeg;base64,QUJD"}`, v.ID)
	done := e.update(v.ID, func(x *verifier.Verification) {
		x.Status, x.CompletedAt, x.Result = verifier.StatusCompleted, e.clock.Now(), json.RawMessage(result)
	})
	w := e.worker(e.s, true)
	t0 := e.clock.Now()
	e.run(w, t0, 1)
	e.run(w, t0.Add(5*time.Second), 1)
	e.run(w, t0.Add(20*time.Second), 1)
	if got := e.webhookStatus(v.ID); got != webhook.StateFailed {
		t.Fatalf("webhook_status %q, want failed", got)
	}
	e.purge(v)
	want, err := verifier.PurgeResult(done.Result)
	if err != nil {
		t.Fatal(err)
	}
	if h := e.history(v.ID); len(h) != 1 || !bytes.Equal(h[0].Payload, want) || h[0].Headers["X-Shop"] != "42" {
		t.Fatalf("failed delivery after the purge: %+v", h)
	}
	if _, err := e.s.Retry(ctx, v.ID, "retry-after-purge", e.clock.Now()); err != nil {
		t.Fatalf("Retry: %v", err)
	}
	e.run(w, e.clock.Now(), 1)
	reqs := e.r.Requests()
	if len(reqs) != 4 || !bytes.Equal(reqs[3].Body, want) || bytes.Contains(reqs[3].Body, []byte("Quillfeather")) {
		t.Fatalf("retry after the purge sent %d requests, the last %s; want the purged result %s", len(reqs), reqs[len(reqs)-1].Body, want)
	}
	if got := e.webhookStatus(v.ID); got != webhook.StateDelivered {
		t.Fatalf("webhook_status after the retry %q, want delivered", got)
	}
}
