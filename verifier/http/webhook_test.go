package http

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	nethttp "net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// webhookHarness is the API with the webhook endpoints mounted, a worker on
// the same store and clock, and an HTTPS receiver that fails until up.
type webhookHarness struct {
	*harness
	worker *webhook.Worker
	rcv    *webhooktest.Receiver
	up     atomic.Bool
	wakes  atomic.Int64
}

func newWebhookHarness(t *testing.T, open func(t *testing.T) *sqlstore.DB) *webhookHarness {
	t.Helper()
	st := open(t)
	h := &webhookHarness{}
	h.rcv = webhooktest.NewReceiver(t, func(int) int {
		if h.up.Load() {
			return nethttp.StatusOK
		}
		return nethttp.StatusInternalServerError
	})
	sealer := seal.Ephemeral()
	var secrets verifier.WebhookSecrets
	h.harness = newHarnessOn(t, st, func(d *Deps) {
		secrets = verifier.WebhookSecrets{Store: st, Sealer: sealer, Now: d.Now}
		d.Webhooks = WebhookDeps{Queue: st, Secrets: secrets, Wake: func() { h.wakes.Add(1) }}
	})
	h.worker = h.deliveryWorker(st, h.rcv, secrets)
	return h
}

// deliveryWorker is a worker on q that signs with secrets and trusts rcv's
// certificate, on the harness clock.
func (h *harness) deliveryWorker(q webhook.Queue, rcv *webhooktest.Receiver, secrets verifier.WebhookSecrets) *webhook.Worker {
	return parts.Worker(q, rcv.Pool, secrets, h.clock.Now, webhook.WorkerOptions{Now: h.clock.Now, Log: slog.New(slog.DiscardHandler)})
}

// deliver runs w once and returns the bodies rcv got, once it has want.
func (h *harness) deliver(w *webhook.Worker, rcv *webhooktest.Receiver, want int) [][]byte {
	h.t.Helper()
	if _, err := w.RunOnce(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	rcv.Wait(h.t, want, 10*time.Second)
	var out [][]byte
	for _, r := range rcv.Requests() {
		out = append(out, r.Body)
	}
	return out
}

// completed stores a verification of the account, completed with a result,
// which enqueues its delivery.
func (h *webhookHarness) completed(accountID string) verifier.Verification {
	h.t.Helper()
	ctx := context.Background()
	now := h.clock.Now()
	v := verifier.Verification{ID: uuid.NewString(), AccountID: accountID, TokenHash: []byte(uuid.NewString()),
		Status: verifier.StatusPending, Type: verifier.TypeCore, WebhookURL: h.rcv.URL,
		WebhookHeaders: map[string]string{"X-Receiver-Token": "t0ken"}, LifetimeDays: 14,
		ExpiresAt: now.Add(14 * 24 * time.Hour), CreatedAt: now, UpdatedAt: now}
	if err := h.store.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
		h.t.Fatal(err)
	}
	for _, st := range []verifier.Status{verifier.StatusStarted, verifier.StatusCompleted} {
		if _, err := h.store.UpdateVerification(ctx, accountID, v.ID, func(x *verifier.Verification) error {
			x.Status = st
			if st == verifier.StatusCompleted {
				x.Result = json.RawMessage(fmt.Sprintf(`{"request_id":%q,"verification":{"over_21":true}}`, v.ID))
			}
			return nil
		}); err != nil {
			h.t.Fatal(err)
		}
	}
	v, err := h.store.GetVerification(ctx, accountID, v.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// attemptAt moves the clock to at and runs the worker once.
func (h *webhookHarness) attemptAt(at time.Time, want int) {
	h.t.Helper()
	h.clock.Advance(at.Sub(h.clock.Now()))
	if n, err := h.worker.RunOnce(context.Background()); err != nil || n != want {
		h.t.Fatalf("RunOnce = %d, %v; want %d", n, err, want)
	}
}

type deliveriesBody struct {
	VerificationID string             `json:"verification_id"`
	WebhookStatus  string             `json:"webhook_status"`
	Deliveries     []deliveryResponse `json:"deliveries"`
}

func TestWebhookRetryAndDeliveryLog(t *testing.T) {
	onBothBackends(t, testWebhookRetryAndDeliveryLog)
}

func testWebhookRetryAndDeliveryLog(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newWebhookHarness(t, open)
	h.account("hooks@example.com", "correct horse battery")
	bearer := h.signIn("hooks@example.com", "correct horse battery")
	a, err := h.store.GetAccountByEmail(context.Background(), "hooks@example.com")
	if err != nil {
		t.Fatal(err)
	}

	r := h.do("POST", "/webhook-secret", "", "Authorization", bearer)
	var rotated struct {
		Secret        string     `json:"secret"`
		PreviousUntil *time.Time `json:"previous_secret_valid_until"`
	}
	r.json(t, &rotated)
	if r.status != 201 || !strings.HasPrefix(rotated.Secret, webhook.SecretPrefix) || rotated.PreviousUntil != nil ||
		r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("first rotation: %d %s", r.status, r.body)
	}

	v := h.completed(a.ID)
	path := "?id=" + v.ID
	var log deliveriesBody
	r = h.do("GET", "/verification/webhook/deliveries"+path, "", "Authorization", bearer)
	r.json(t, &log)
	if r.status != 200 || log.WebhookStatus != "pending" || len(log.Deliveries) != 1 || len(log.Deliveries[0].Attempts) != 0 ||
		log.Deliveries[0].NextAttemptAt == nil || log.Deliveries[0].HeaderNames[0] != "X-Receiver-Token" ||
		bytes.Contains(r.body, []byte("t0ken")) {
		t.Fatalf("log before any attempt: %d %s", r.status, r.body)
	}
	expectError(t, h.do("POST", "/verification/webhook/retry"+path, "", "Authorization", bearer), 409, httperr.Conflict)

	t0 := h.clock.Now()
	h.attemptAt(t0, 1)
	h.attemptAt(t0.Add(5*time.Second), 1)
	h.attemptAt(t0.Add(20*time.Second), 1)
	r = h.do("GET", "/verification/webhook/deliveries"+path, "", "Authorization", bearer)
	log = deliveriesBody{}
	r.json(t, &log)
	if log.WebhookStatus != "failed" || len(log.Deliveries) != 1 || log.Deliveries[0].State != "failed" || len(log.Deliveries[0].Attempts) != 3 {
		t.Fatalf("log after three failures: %s", r.body)
	}
	for i, at := range log.Deliveries[0].Attempts {
		if at.Attempt != i+1 || at.StatusCode != 500 || !strings.Contains(at.Error, "500") || at.Snippet != `{"received":true}` {
			t.Errorf("attempt %d: %+v", i+1, at)
		}
	}

	// Manual retry: a fresh cycle of the same payload, due now.
	h.up.Store(true)
	h.clock.Advance(time.Hour)
	r = h.do("POST", "/verification/webhook/retry"+path, "", "Authorization", bearer)
	var retried deliveryResponse
	r.json(t, &retried)
	if r.status != 202 || retried.State != "pending" || retried.ID == log.Deliveries[0].ID || h.wakes.Load() != 1 {
		t.Fatalf("retry: %d %s (wakes %d)", r.status, r.body, h.wakes.Load())
	}
	expectError(t, h.do("POST", "/verification/webhook/retry"+path, "", "Authorization", bearer), 409, httperr.Conflict)
	h.attemptAt(h.clock.Now(), 1)
	reqs := h.rcv.Requests()
	last := reqs[len(reqs)-1]
	if len(reqs) != 4 || !bytes.Equal(last.Body, v.Result) || last.Header.Get(webhook.HeaderDeliveryID) != retried.ID ||
		last.Header.Get(webhook.HeaderAttempt) != "1" || last.Header.Get("X-Receiver-Token") != "t0ken" {
		t.Fatalf("retried delivery: %d requests, last %v %s", len(reqs), last.Header, last.Body)
	}
	if err := client.VerifySignature([]byte(rotated.Secret), last.Header.Get(webhook.HeaderSignature), last.Body, h.clock.Now(), time.Minute); err != nil {
		t.Fatalf("signature with the secret shown at rotation: %v", err)
	}
	r = h.do("GET", "/verification/webhook/deliveries"+path, "", "Authorization", bearer)
	log = deliveriesBody{}
	r.json(t, &log)
	if log.WebhookStatus != "delivered" || len(log.Deliveries) != 2 || log.Deliveries[0].ID != retried.ID ||
		log.Deliveries[0].State != "delivered" || log.Deliveries[1].State != "failed" {
		t.Fatalf("log after the retry: %s", r.body)
	}

	// A second rotation keeps the first secret co-signing for a day.
	r = h.do("POST", "/webhook-secret", "", "Authorization", bearer)
	var second struct {
		Secret        string     `json:"secret"`
		PreviousUntil *time.Time `json:"previous_secret_valid_until"`
	}
	r.json(t, &second)
	if r.status != 201 || second.Secret == rotated.Secret || second.PreviousUntil == nil ||
		!second.PreviousUntil.Equal(h.clock.Now().Add(webhook.RotationGrace)) {
		t.Fatalf("second rotation: %d %s", r.status, r.body)
	}
}

func TestWebhookEndpointsRefuse(t *testing.T) {
	onBothBackends(t, testWebhookEndpointsRefuse)
}

func testWebhookEndpointsRefuse(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newWebhookHarness(t, open)
	h.account("owner@example.com", "correct horse battery")
	h.account("other@example.com", "correct horse battery")
	owner, err := h.store.GetAccountByEmail(context.Background(), "owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	other := h.signIn("other@example.com", "correct horse battery")
	v := h.completed(owner.ID)
	h.attemptAt(h.clock.Now(), 1)

	for _, c := range []struct {
		method, path string
	}{{"GET", "/verification/webhook/deliveries"}, {"POST", "/verification/webhook/retry"}} {
		// Another account's verification, an unknown and a malformed ID.
		for _, id := range []string{v.ID, uuid.NewString(), "not-a-uuid"} {
			expectError(t, h.do(c.method, c.path+"?id="+id, "", "Authorization", other), 404, httperr.NotFound)
		}
		expectError(t, h.do(c.method, c.path, "", "Authorization", other), 422, httperr.ValidationFailed)
		expectError(t, h.do(c.method, c.path+"?id="+v.ID, ""), 401, httperr.Unauthenticated)
		expectError(t, h.do(c.method, c.path+"?id="+v.ID, "", "X-API-Key", "idgk_anything"), 403, httperr.Forbidden)
	}
	expectError(t, h.do("POST", "/webhook-secret", ""), 401, httperr.Unauthenticated)
	if len(h.rcv.Requests()) != 1 || h.wakes.Load() != 0 {
		t.Fatalf("refused calls changed deliveries: %d requests, %d wakes", len(h.rcv.Requests()), h.wakes.Load())
	}
}
