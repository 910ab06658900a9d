package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// runWorker starts w.Run on a fresh SQLite store's outbox and returns a
// function that completes k new verifications, each enqueueing its
// delivery, and a stop function.
func runWorker(t *testing.T, r *webhooktest.Receiver, o webhook.WorkerOptions) (*webhook.Worker, func(k int), func() error) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a, err := verifier.NewAccount("worker@example.com", "correct horse battery", t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	o.Log = slog.New(slog.DiscardHandler)
	sender := webhook.NewSender(webhook.SenderOptions{AllowLoopback: true, RootCAs: r.Pool,
		Secrets: webhooktest.Secrets{a.ID: {secret}}, Now: func() time.Time { return t0 }})
	w := webhook.NewWorker(st, sender, o)
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	enqueue := func(k int) {
		for i := range k {
			now := time.Now()
			v := verifier.Verification{ID: uuid.NewString(), AccountID: a.ID, TokenHash: []byte(uuid.NewString()),
				Status: verifier.StatusPending, Type: verifier.TypeCore, WebhookURL: r.URL, LifetimeDays: 1,
				ExpiresAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}
			if err := st.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
				t.Fatal(err)
			}
			for _, to := range []verifier.Status{verifier.StatusStarted, verifier.StatusCompleted} {
				if _, err := st.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error {
					x.Status, x.UpdatedAt = to, now
					if to == verifier.StatusCompleted {
						x.CompletedAt, x.Result = now, fmt.Appendf(nil, `{"n":%d}`, i)
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	stop := func() error {
		cancel()
		return <-done
	}
	return w, enqueue, stop
}

func TestRunWakesOnEnqueue(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	// Polling is off in effect: only Wake can make these go out in time.
	w, enqueue, stop := runWorker(t, r, webhook.WorkerOptions{Poll: time.Hour, Concurrency: 4})
	enqueue(10)
	w.Wake()
	r.Wait(t, 10, 10*time.Second)
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
	if n := len(r.Requests()); n != 10 {
		t.Fatalf("%d requests, want 10", n)
	}
}

func TestRunPolls(t *testing.T) {
	r := webhooktest.NewReceiver(t, webhooktest.Always(http.StatusOK))
	_, enqueue, stop := runWorker(t, r, webhook.WorkerOptions{Poll: 10 * time.Millisecond})
	enqueue(3) // no Wake: a poll finds them
	r.Wait(t, 3, 10*time.Second)
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
}
