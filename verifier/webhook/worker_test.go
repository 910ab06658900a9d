package webhook_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite"

	vsqlite "github.com/idgate/idgate/verifier/sqlite"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/sqlite"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// runWorker starts w.Run on a fresh SQLite outbox and returns a function
// that enqueues k deliveries in one transaction, and a stop function.
func runWorker(t *testing.T, r *webhooktest.Receiver, o webhook.WorkerOptions) (*webhook.Worker, func(k int), func() error) {
	path := filepath.Join(t.TempDir(), "w.db")
	st, err := vsqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Migrate(context.Background()) // the outbox tables are in the store's migrations
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_busy_timeout=10000&_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	o.Log = slog.New(slog.DiscardHandler)
	w := webhook.NewWorker(sqlite.New(db), loopbackSender(r), o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	enqueue := func(k int) {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for i := range k {
			d := webhook.Delivery{ID: uuid.NewString(), AccountID: "acct", VerificationID: uuid.NewString(),
				URL: r.URL, Payload: fmt.Appendf(nil, `{"n":%d}`, i)}
			if err := sqlite.Enqueue(context.Background(), tx, d, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
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
