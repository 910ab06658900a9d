package verifier_test

import (
	"context"
	"crypto/sha256"
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

// TestSweepPrunesDeadDashboardSessions: a sweep removes sessions idle past
// the timeout and sessions past their maximum age, and keeps live ones
// (Resume would refuse the dead ones anyway; the sweep keeps rows from
// piling up for accounts that never come back).
func TestSweepPrunesDeadDashboardSessions(t *testing.T) {
	ctx := context.Background()
	store, a, clock := sqliteAccount(t, "sessions@example.com")
	sessions := verifier.DashboardSessions{Store: store, Now: clock.Now}
	idle, _, err := sessions.Start(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := sessions.Start(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	// old stays busy for 12 hours; idle is left alone.
	for elapsed := time.Duration(0); elapsed < verifier.DashboardMaxAge-10*time.Minute; elapsed += 10 * time.Minute {
		clock.Advance(10 * time.Minute)
		if _, _, err := sessions.Resume(ctx, old); err != nil {
			t.Fatalf("busy session refused after %s: %v", elapsed, err)
		}
	}
	live, _, err := sessions.Start(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(11 * time.Minute) // old is now past 12 hours
	if _, err := (verifier.Sweeper{Store: store, Now: clock.Now}).Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]string{"idle": idle, "too old": old} {
		if _, err := store.GetDashboardSession(ctx, hashOf(tok)); err == nil {
			t.Errorf("the %s session survived the sweep", name)
		}
	}
	if _, _, err := sessions.Resume(ctx, live); err != nil {
		t.Errorf("the live session: %v", err)
	}
}

// hashOf is how a dashboard session's token is stored.
func hashOf(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
