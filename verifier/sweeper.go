package verifier

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// Sweeper defaults.
const (
	DefaultSweepInterval = time.Minute
	DefaultSweepBatch    = 500
)

// Sweeper moves links past their lifetime to expired, releasing their
// slots. Store.ExpireDue expires each verification exactly once, so any
// number of instances may sweep at the same time and a sweep may repeat.
type Sweeper struct {
	Store    Store
	Now      func() time.Time
	Interval time.Duration // between sweeps; DefaultSweepInterval if zero
	Batch    int           // verifications per statement; DefaultSweepBatch if zero
	Log      *slog.Logger
	// Purge, when set, runs after each sweep: the scheduled removal of
	// personal data (flow.Flow.PurgeDue), which shares the sweeper's
	// schedule and, like expiry, is safe from several instances at once.
	Purge func(ctx context.Context) (int, error)
}

// Sweep expires everything due at Now, in batches, and returns how many;
// it also removes dead dashboard sessions.
func (s Sweeper) Sweep(ctx context.Context) (int, error) {
	batch := s.Batch
	if batch <= 0 {
		batch = DefaultSweepBatch
	}
	now := s.Now()
	total := 0
	for {
		ids, err := s.Store.ExpireDue(ctx, now, batch)
		total += len(ids)
		if err != nil {
			return total, fmt.Errorf("sweep: %w", err)
		}
		if len(ids) < batch {
			break
		}
	}
	// Dead dashboard sessions (idle or too old) go with the same sweep, so
	// their rows do not pile up for accounts that never sign in again.
	if err := s.Store.PruneDashboardSessions(ctx, now.Add(-DashboardIdleTimeout), now.Add(-DashboardMaxAge)); err != nil {
		return total, fmt.Errorf("sweep: %w", err)
	}
	return total, nil
}

// Run sweeps at once and then every Interval until ctx ends. Failures are
// logged and retried at the next tick: a database hiccup must not stop
// expiry for good.
func (s Sweeper) Run(ctx context.Context) {
	interval := s.Interval
	if interval <= 0 {
		interval = DefaultSweepInterval
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		n, err := s.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.Log.Error("expiry sweep failed", "err", err, "expired", n)
		case n > 0:
			s.Log.Info("expired verifications", "count", n)
		}
		if s.Purge != nil {
			n, err := s.Purge(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				s.Log.Error("personal data purge failed", "err", err, "purged", n)
			case n > 0:
				s.Log.Info("purged personal data", "count", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
