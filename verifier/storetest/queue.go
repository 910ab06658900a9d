package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/client"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// QueueBackend is one database under test, with a tiny stand-in for the
// verifications table so the suite can prove enqueueing is transactional.
type QueueBackend struct {
	Queue webhook.Queue
	// Complete sets the stand-in verification d.VerificationID to
	// "completed" and enqueues d (due at now) in one transaction, which it
	// rolls back instead of committing when rollback is set.
	Complete func(ctx context.Context, d webhook.Delivery, now time.Time, rollback bool) error
	// Delete deletes the stand-in verification and, in the same
	// transaction, forgets its deliveries.
	Delete func(ctx context.Context, verificationID string) error
	// Status is the stand-in verification's status, "" when absent.
	Status func(ctx context.Context, verificationID string) (string, error)
	// Reopen returns a new Queue on a new connection pool to the same
	// database, as a restarted process gets.
	Reopen func(t *testing.T) webhook.Queue
}

// RunQueue checks the delivery outbox as the worker sees it (webhook.Queue)
// with the real worker and sender; open returns a fresh, migrated, empty
// database per subtest. Where RunWebhooks drives deliveries through the
// store's verifications, RunQueue uses a stand-in verifications table, so it
// can enqueue any delivery and roll an enqueue back.
func RunQueue(t *testing.T, open func(t *testing.T) QueueBackend) {
	tests := []struct {
		name string
		fn   func(t *testing.T, e *queueEnv)
	}{
		{"EnqueueIsPartOfTheStateChange", testQueueTransactional},
		{"EnqueueRejectsInvalid", testQueueInvalid},
		{"Success", testQueueSuccess},
		{"FailureThenSuccess", testQueueFailureThenSuccess},
		{"ThreeFailuresFail", testQueueThreeFailures},
		{"CrashBetweenAttempts", testQueueCrashBetweenAttempts},
		{"CrashDuringAttempt", testQueueCrashDuringAttempt},
		{"ConcurrentWorkersAttemptOnce", testQueueConcurrentWorkers},
		{"ManualRetry", testQueueManualRetry},
		{"DeletedVerificationSendsNothing", testQueueDeleted},
		{"PurgeEmptiesDeliveredPayloads", testQueuePurge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, &queueEnv{b: open(t), clock: testkit.ClockAt(queueT0), t: t})
		})
	}
}

var queueT0 = time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)

const (
	queueAccount = "0b8f6d3e-2a41-4c55-9e0f-5a7d1c2b3e4f"
	queueLease   = 30 * time.Second
)

var queueSecret = []byte("whsec_suite")

// queueEnv is one subtest's world: the backend, an explicit clock and a receiver.
type queueEnv struct {
	t     *testing.T
	b     QueueBackend
	clock *testkit.Clock
	r     *webhooktest.Receiver
}

func (e *queueEnv) receive(respond func(n int) int) { e.r = webhooktest.NewReceiver(e.t, respond) }

// worker is a fresh worker on q, as a new process would start.
func (e *queueEnv) worker(q webhook.Queue, concurrency int) *webhook.Worker {
	s := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: e.r.Pool,
		Secrets: webhooktest.Secrets{queueAccount: {queueSecret}}, Now: e.clock.Now})
	return webhook.NewWorker(q, s, webhook.WorkerOptions{Now: e.clock.Now, Lease: queueLease,
		Concurrency: concurrency, Log: slog.New(slog.DiscardHandler)})
}

// runAt sets the clock and runs w once, failing unless it attempted want.
func (e *queueEnv) runAt(w *webhook.Worker, at time.Time, want int) {
	e.t.Helper()
	e.clock.Set(at)
	n, err := w.RunOnce(context.Background())
	if err != nil || n != want {
		e.t.Fatalf("at %s: RunOnce = %d, %v; want %d attempts", at.Sub(queueT0), n, err, want)
	}
}

func (e *queueEnv) newDelivery() webhook.Delivery {
	vid := uuid.NewString()
	return webhook.Delivery{
		ID: uuid.NewString(), AccountID: queueAccount, VerificationID: vid, URL: e.r.URL,
		Headers: map[string]string{"Authorization": "Bearer receiver-token"},
		Payload: fmt.Appendf(nil, `{"request_id":%q,"verification":{"over_18":true,"face_match_score":"definite_match"}}`, vid),
	}
}

func (e *queueEnv) complete(d webhook.Delivery) {
	e.t.Helper()
	if err := e.b.Complete(context.Background(), d, e.clock.Now(), false); err != nil {
		e.t.Fatalf("complete: %v", err)
	}
}

func (e *queueEnv) history(vid string) []webhook.DeliveryLog {
	e.t.Helper()
	h, err := e.b.Queue.History(context.Background(), vid)
	if err != nil {
		e.t.Fatalf("history: %v", err)
	}
	return h
}

// checkRequests asserts every request carries d's payload byte for byte,
// its delivery ID, attempts 1..n in order, and a valid signature.
func (e *queueEnv) checkRequests(d webhook.Delivery, n int) {
	e.t.Helper()
	reqs := e.r.Requests()
	if len(reqs) != n {
		e.t.Fatalf("receiver got %d requests, want %d", len(reqs), n)
	}
	for i, req := range reqs {
		if !bytes.Equal(req.Body, d.Payload) {
			e.t.Errorf("request %d body %q differs from the payload", i+1, req.Body)
		}
		if got := req.Header.Get(webhook.HeaderDeliveryID); got != d.ID {
			e.t.Errorf("request %d delivery id %q, want %q", i+1, got, d.ID)
		}
		if got := req.Header.Get(webhook.HeaderAttempt); got != strconv.Itoa(i+1) {
			e.t.Errorf("request %d attempt header %q, want %d", i+1, got, i+1)
		}
		if got := req.Header.Get("Authorization"); got != "Bearer receiver-token" {
			e.t.Errorf("request %d custom header %q", i+1, got)
		}
		// The suite's clock jumps ahead of the signing times; the tolerance
		// only has to cover the jumps.
		if err := client.VerifySignature(queueSecret, req.Header.Get(webhook.HeaderSignature), req.Body, e.clock.Now(), 48*time.Hour); err != nil {
			e.t.Errorf("request %d signature: %v", i+1, err)
		}
	}
}

// checkLog asserts the delivery log of the verification's only delivery.
func (e *queueEnv) checkLog(d webhook.Delivery, state string, statuses ...int) {
	e.t.Helper()
	h := e.history(d.VerificationID)
	if len(h) != 1 || h[0].ID != d.ID || h[0].State != state || h[0].Attempt != len(statuses) || len(h[0].Attempts) != len(statuses) {
		e.t.Fatalf("history %+v; want one %s delivery with %d attempts", h, state, len(statuses))
	}
	for i, a := range h[0].Attempts {
		ok := statuses[i] >= 200 && statuses[i] < 300
		if a.Attempt != i+1 || a.StatusCode != statuses[i] || (a.Error == "") != ok || a.StartedAt.IsZero() || a.Duration <= 0 {
			e.t.Errorf("log row %d: %+v; want attempt %d status %d", i, a, i+1, statuses[i])
		}
	}
}

func testQueueTransactional(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusOK))
	ctx := context.Background()
	d := e.newDelivery()
	if err := e.b.Complete(ctx, d, queueT0, true); err != nil {
		t.Fatalf("complete (rolled back): %v", err)
	}
	if st, err := e.b.Status(ctx, d.VerificationID); err != nil || st != "" {
		t.Fatalf("status after rollback %q, %v", st, err)
	}
	w := e.worker(e.b.Queue, 8)
	e.runAt(w, queueT0.Add(time.Hour), 0)
	if h := e.history(d.VerificationID); len(h) != 0 {
		t.Fatalf("rolled-back enqueue left %+v", h)
	}
	e.clock.Set(queueT0)
	e.complete(d)
	if st, _ := e.b.Status(ctx, d.VerificationID); st != "completed" {
		t.Fatalf("status %q", st)
	}
	e.runAt(w, queueT0, 1)
	e.checkRequests(d, 1)
}

func testQueueInvalid(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusOK))
	d := e.newDelivery()
	d.Payload = []byte(`{"request_id":`)
	err := e.b.Complete(context.Background(), d, queueT0, false)
	if !errors.Is(err, webhook.ErrInvalidDelivery) {
		t.Fatalf("non-JSON payload: got %v", err)
	}
}

func testQueueSuccess(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusNoContent))
	d := e.newDelivery()
	e.complete(d)
	w := e.worker(e.b.Queue, 8)
	e.runAt(w, queueT0, 1)
	e.runAt(w, queueT0.Add(time.Hour), 0)
	e.checkRequests(d, 1)
	e.checkLog(d, webhook.StateDelivered, 204)
	if got := e.history(d.VerificationID)[0].Attempts[0].StartedAt; !got.Equal(queueT0) {
		t.Errorf("attempt time %v, want the clock's %v", got, queueT0)
	}
}

func testQueueFailureThenSuccess(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.FailFirst(1, http.StatusInternalServerError))
	d := e.newDelivery()
	e.complete(d)
	w := e.worker(e.b.Queue, 8)
	e.runAt(w, queueT0, 1)
	e.runAt(w, queueT0.Add(5*time.Second-time.Microsecond), 0) // not due yet
	e.runAt(w, queueT0.Add(5*time.Second), 1)
	e.runAt(w, queueT0.Add(time.Hour), 0)
	e.checkRequests(d, 2)
	e.checkLog(d, webhook.StateDelivered, 500, 200)
}

func testQueueThreeFailures(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusServiceUnavailable))
	d := e.newDelivery()
	e.complete(d)
	w := e.worker(e.b.Queue, 8)
	e.runAt(w, queueT0, 1)
	// Attempt 2 runs a second late; attempt 3 is due 15 s after it failed.
	e.runAt(w, queueT0.Add(6*time.Second), 1)
	h := e.history(d.VerificationID)
	if want := queueT0.Add(21 * time.Second); h[0].State != webhook.StatePending || !h[0].NextAttemptAt.Equal(want) {
		t.Fatalf("after attempt 2: %s due %v, want pending due %v", h[0].State, h[0].NextAttemptAt, want)
	}
	e.runAt(w, queueT0.Add(21*time.Second-time.Microsecond), 0)
	e.runAt(w, queueT0.Add(21*time.Second), 1)
	e.runAt(w, queueT0.Add(24*time.Hour), 0)
	e.checkRequests(d, 3)
	e.checkLog(d, webhook.StateFailed, 503, 503, 503)
}

func testQueueCrashBetweenAttempts(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.FailFirst(1, http.StatusBadGateway))
	d := e.newDelivery()
	e.complete(d)
	e.runAt(e.worker(e.b.Queue, 8), queueT0, 1)
	// The process dies; a new one starts with its own pool and worker.
	q2 := e.b.Reopen(t)
	e.runAt(e.worker(q2, 8), queueT0.Add(5*time.Second), 1)
	// And again: nothing is left to send, the success is not repeated.
	e.runAt(e.worker(e.b.Reopen(t), 8), queueT0.Add(time.Hour), 0)
	e.checkRequests(d, 2)
	e.checkLog(d, webhook.StateDelivered, 502, 200)
}

func testQueueCrashDuringAttempt(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusOK))
	d := e.newDelivery()
	e.complete(d)
	// A worker claims the delivery and dies before recording anything.
	claimed, err := e.b.Queue.Claim(context.Background(), queueT0, 10, queueLease)
	if err != nil || len(claimed) != 1 || claimed[0].Attempt != 1 {
		t.Fatalf("claim: %+v, %v", claimed, err)
	}
	w := e.worker(e.b.Reopen(t), 8)
	e.runAt(w, queueT0.Add(queueLease-time.Microsecond), 0) // the queueLease still holds
	e.runAt(w, queueT0.Add(queueLease), 1)                  // expired: attempt 1 is made
	e.runAt(w, queueT0.Add(time.Hour), 0)
	// The dead worker's late outcome is refused.
	late := webhook.AttemptResult{Attempt: 1, StartedAt: queueT0, StatusCode: 500, Err: errors.New("late")}
	if err := e.b.Queue.Record(context.Background(), claimed[0], late, webhook.Outcome{State: webhook.StateFailed}); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Fatalf("late record: %v, want ErrLeaseLost", err)
	}
	e.checkRequests(d, 1)
	e.checkLog(d, webhook.StateDelivered, 200)
}

func testQueueConcurrentWorkers(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusOK))
	const n = 30
	for range n {
		e.complete(e.newDelivery())
	}
	workers := []*webhook.Worker{e.worker(e.b.Queue, 4), e.worker(e.b.Reopen(t), 4), e.worker(e.b.Reopen(t), 4)}
	var total atomic.Int64
	for round := 0; total.Load() < n && round < n; round++ {
		var wg sync.WaitGroup
		for _, w := range workers {
			wg.Go(func() {
				k, err := w.RunOnce(context.Background())
				if err != nil {
					t.Errorf("RunOnce: %v", err)
				}
				total.Add(int64(k))
			})
		}
		wg.Wait()
	}
	seen := map[string]int{}
	for _, r := range e.r.Requests() {
		seen[r.Header.Get(webhook.HeaderDeliveryID)]++
	}
	if total.Load() != n || len(seen) != n {
		t.Fatalf("%d attempts over %d distinct deliveries, want %d each", total.Load(), len(seen), n)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("delivery %s sent %d times", id, k)
		}
	}
}

func testQueueManualRetry(t *testing.T, e *queueEnv) {
	var up atomic.Bool
	e.receive(func(int) int {
		if up.Load() {
			return http.StatusOK
		}
		return http.StatusInternalServerError
	})
	ctx := context.Background()
	d := e.newDelivery()
	if _, err := e.b.Queue.Retry(ctx, d.VerificationID, uuid.NewString(), queueT0); !errors.Is(err, webhook.ErrNotFailed) {
		t.Fatalf("retry without deliveries: %v", err)
	}
	e.complete(d)
	w := e.worker(e.b.Queue, 8)
	e.runAt(w, queueT0, 1)
	if _, err := e.b.Queue.Retry(ctx, d.VerificationID, uuid.NewString(), queueT0); !errors.Is(err, webhook.ErrNotFailed) {
		t.Fatalf("retry while pending: %v", err)
	}
	e.runAt(w, queueT0.Add(5*time.Second), 1)
	e.runAt(w, queueT0.Add(20*time.Second), 1)
	e.checkLog(d, webhook.StateFailed, 500, 500, 500)

	up.Store(true)
	at := queueT0.Add(time.Hour)
	retry, err := e.b.Queue.Retry(ctx, d.VerificationID, uuid.NewString(), at)
	if err != nil || retry.State != webhook.StatePending || retry.ID == d.ID || !bytes.Equal(retry.Payload, d.Payload) {
		t.Fatalf("retry: %+v, %v", retry, err)
	}
	if _, err := e.b.Queue.Retry(ctx, d.VerificationID, uuid.NewString(), at); !errors.Is(err, webhook.ErrNotFailed) {
		t.Fatalf("second retry: %v", err)
	}
	e.runAt(w, at, 1)
	reqs := e.r.Requests()
	last := reqs[len(reqs)-1]
	if len(reqs) != 4 || last.Header.Get(webhook.HeaderDeliveryID) != retry.ID ||
		last.Header.Get(webhook.HeaderAttempt) != "1" || !bytes.Equal(last.Body, d.Payload) {
		t.Fatalf("retry delivery: %d requests, last %v", len(reqs), last.Header)
	}
	h := e.history(d.VerificationID)
	if len(h) != 2 || h[0].ID != retry.ID || h[0].State != webhook.StateDelivered || len(h[0].Attempts) != 1 ||
		h[1].ID != d.ID || h[1].State != webhook.StateFailed || len(h[1].Attempts) != 3 {
		t.Fatalf("history after retry: %+v", h)
	}
}

func testQueueDeleted(t *testing.T, e *queueEnv) {
	e.receive(webhooktest.Always(http.StatusInternalServerError))
	d, other := e.newDelivery(), e.newDelivery()
	e.complete(d)
	e.complete(other)
	w := e.worker(e.b.Queue, 8)
	e.runAt(w, queueT0, 2)
	// A claim in flight when the verification is deleted records nothing.
	claimed, err := e.b.Queue.Claim(context.Background(), queueT0.Add(5*time.Second), 10, queueLease)
	if err != nil || len(claimed) != 2 {
		t.Fatalf("claim: %d, %v", len(claimed), err)
	}
	if err := e.b.Delete(context.Background(), d.VerificationID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	for _, c := range claimed {
		res := webhook.AttemptResult{Attempt: c.Attempt, StartedAt: queueT0.Add(5 * time.Second), StatusCode: 200}
		err := e.b.Queue.Record(context.Background(), c, res, webhook.Outcome{State: webhook.StateDelivered})
		if deleted := c.VerificationID == d.VerificationID; deleted != errors.Is(err, webhook.ErrLeaseLost) {
			t.Errorf("record for %s (deleted %v): %v", c.VerificationID, deleted, err)
		}
	}
	e.runAt(w, queueT0.Add(time.Hour), 0)
	if h := e.history(d.VerificationID); len(h) != 0 {
		t.Fatalf("deleted verification still has deliveries: %+v", h)
	}
	if h := e.history(other.VerificationID); len(h) != 1 || h[0].State != webhook.StateDelivered {
		t.Fatalf("the other verification's delivery was touched: %+v", h)
	}
}

func testQueuePurge(t *testing.T, e *queueEnv) {
	e.receive(func(n int) int {
		if n == 1 {
			return http.StatusOK
		}
		return http.StatusInternalServerError
	})
	ctx := context.Background()
	delivered, failed := e.newDelivery(), e.newDelivery()
	s := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: e.r.Pool,
		Secrets: webhooktest.Secrets{queueAccount: {queueSecret}}, Now: e.clock.Now})
	w := webhook.NewWorker(e.b.Queue, s, webhook.WorkerOptions{Now: e.clock.Now, Lease: queueLease, Retention: time.Hour,
		Log: slog.New(slog.DiscardHandler)})
	e.complete(delivered)
	e.runAt(w, queueT0, 1)
	e.complete(failed)
	e.runAt(w, queueT0, 1)
	e.runAt(w, queueT0.Add(5*time.Second), 1)
	e.runAt(w, queueT0.Add(20*time.Second), 1)
	e.checkLog(failed, webhook.StateFailed, 500, 500, 500)

	purge := func(at time.Time, want int) {
		t.Helper()
		e.clock.Set(at)
		if n, err := w.Purge(ctx); err != nil || n != want {
			t.Fatalf("at %v: Purge = %d, %v; want %d", at.Sub(queueT0), n, err, want)
		}
	}
	purge(queueT0.Add(time.Hour), 0) // delivered exactly an hour ago: kept
	purge(queueT0.Add(time.Hour+time.Microsecond), 1)
	purge(queueT0.Add(48*time.Hour), 0) // already empty; the failed one stays
	h := e.history(delivered.VerificationID)
	if len(h) != 1 || len(h[0].Payload) != 0 || len(h[0].Headers) != 0 || h[0].State != webhook.StateDelivered ||
		len(h[0].Attempts) != 1 || h[0].Attempts[0].StatusCode != 200 {
		t.Fatalf("purged delivery: %+v", h)
	}
	h = e.history(failed.VerificationID)
	if len(h) != 1 || !bytes.Equal(h[0].Payload, failed.Payload) || h[0].Headers["Authorization"] == "" {
		t.Fatalf("the failed delivery lost its payload or headers: %+v", h)
	}
	// A manual retry still sends the failed delivery's bytes.
	if _, err := e.b.Queue.Retry(ctx, failed.VerificationID, uuid.NewString(), queueT0.Add(48*time.Hour)); err != nil {
		t.Fatalf("retry: %v", err)
	}
}
