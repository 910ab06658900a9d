package verifier_test

import (
	"context"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

// TestSweeperRun: Run sweeps at once, logs what it expired, and returns
// when its context ends (no waiting for the interval).
func TestSweeperRun(t *testing.T) {
	ctx := context.Background()
	store, a, clock := sqliteAccount(t, "sweep@example.com")
	for i := 0; i < 3; i++ {
		now := clock.Now().UTC().Truncate(time.Microsecond)
		v := verifier.Verification{ID: uuid.NewString(), AccountID: a.ID, TokenHash: []byte(uuid.NewString()),
			Status: verifier.StatusPending, Type: verifier.TypeCore, LifetimeDays: 1,
			ExpiresAt: now.Add(time.Duration(i) * 24 * time.Hour), CreatedAt: now, UpdatedAt: now}
		if err := store.CreateVerification(ctx, v, verifier.Allowance{Limit: -1}); err != nil {
			t.Fatal(err)
		}
	}
	logs := &testkit.LogBuffer{}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		purge := func(context.Context) (int, error) { return 7, nil }
		verifier.Sweeper{Store: store, Now: clock.Now, Interval: time.Hour, Log: slog.New(slog.NewTextHandler(logs, nil)), Purge: purge}.Run(runCtx)
	}()
	// The first sweep runs at once, then the purge; wait for their log
	// lines, not for time.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "count=1") || !strings.Contains(logs.String(), `msg="purged personal data" count=7`) {
		if time.Now().After(deadline) {
			t.Fatalf("no sweep logged: %q", logs.String())
		}
		runtime.Gosched()
	}
	cancel()
	<-done // Run returns when its context ends, without waiting an interval
	clock.Advance(48 * time.Hour)
	n, err := verifier.Sweeper{Store: store, Now: clock.Now, Batch: 1}.Sweep(ctx)
	if err != nil || n != 2 {
		t.Fatalf("batched sweep: %d %v", n, err)
	}
}
