package storetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

// testExpireDue runs on a store of its own: ExpireDue sweeps every account,
// so sharing would let it expire other tests' verifications.
func testExpireDue(t *testing.T, newStore func(t *testing.T) verifier.Store) {
	ctx := context.Background()
	fresh := func(t *testing.T) (verifier.Store, verifier.Account) {
		st := newStore(t)
		return st, mustAccount(t, st)
	}
	// seed makes one verification per status, all due at base, plus a
	// pending one not yet due, and returns the IDs that must expire.
	seed := func(t *testing.T, s verifier.Store, a verifier.Account, copies int) []string {
		t.Helper()
		paths := map[verifier.Status][]verifier.Status{
			verifier.StatusPending:      nil,
			verifier.StatusStarted:      {verifier.StatusStarted},
			verifier.StatusManualReview: {verifier.StatusStarted, verifier.StatusManualReview},
			verifier.StatusCompleted:    {verifier.StatusStarted, verifier.StatusCompleted},
			verifier.StatusCanceled:     {verifier.StatusCanceled},
		}
		var due []string
		for range copies {
			for from, path := range paths {
				v := newVerification(a.ID)
				v.ExpiresAt = base
				mustVerification(t, s, v)
				for _, st := range path {
					if _, err := s.UpdateVerification(ctx, a.ID, v.ID, func(x *verifier.Verification) error { x.Status = st; return nil }); err != nil {
						t.Fatalf("→ %s: %v", st, err)
					}
				}
				if from == verifier.StatusPending || from == verifier.StatusStarted {
					due = append(due, v.ID)
				}
			}
			later := newVerification(a.ID)
			later.ExpiresAt = base.Add(time.Microsecond)
			mustVerification(t, s, later)
			deleted := newVerification(a.ID)
			deleted.ExpiresAt = base
			mustVerification(t, s, deleted)
			if err := s.DeleteVerification(ctx, a.ID, deleted.ID, base); err != nil {
				t.Fatalf("DeleteVerification: %v", err)
			}
		}
		slices.Sort(due)
		return due
	}

	t.Run("MovesOnlyDueUnfinished", func(t *testing.T) {
		t.Parallel()
		s, a := fresh(t)
		due := seed(t, s, a, 3) // 6 due
		now := base
		var got []string
		for _, limit := range []int{4, 4} {
			ids, err := s.ExpireDue(ctx, now, limit)
			if err != nil {
				t.Fatalf("ExpireDue: %v", err)
			}
			if len(ids) > limit {
				t.Fatalf("ExpireDue(limit %d) expired %d", limit, len(ids))
			}
			got = append(got, ids...)
		}
		slices.Sort(got)
		if !slices.Equal(got, due) {
			t.Fatalf("expired %v; want %v", got, due)
		}
		if ids, err := s.ExpireDue(ctx, now, 100); err != nil || len(ids) != 0 {
			t.Fatalf("second sweep = %v, %v; want nothing (idempotent)", ids, err)
		}
		for _, id := range due {
			v, err := s.GetVerification(ctx, a.ID, id)
			if err != nil {
				t.Fatalf("GetVerification: %v", err)
			}
			if v.Status != verifier.StatusExpired || !sameTime(v.UpdatedAt, wantTime(now)) {
				t.Errorf("expired verification: status %s, updated %v", v.Status, v.UpdatedAt)
			}
		}
		page, err := s.ListVerifications(ctx, a.ID, verifier.VerificationFilter{Statuses: []verifier.Status{verifier.StatusPending}, Limit: 100})
		if err != nil || len(page.Items) != 3 {
			t.Fatalf("pending after sweep = %d, %v; want the 3 not yet due", len(page.Items), err)
		}
		if ids, err := s.ExpireDue(ctx, base.Add(time.Microsecond), 100); err != nil || len(ids) != 3 {
			t.Fatalf("sweep a microsecond later = %v, %v; want the 3 now due", ids, err)
		}
		if _, err := s.ExpireDue(ctx, now, 0); err == nil {
			t.Error("ExpireDue accepted limit 0")
		}
	})

	t.Run("ReleasesSlots", func(t *testing.T) {
		t.Parallel()
		s, a := fresh(t)
		one := verifier.Allowance{Limit: 1}
		v := newVerification(a.ID)
		v.ExpiresAt = base
		if err := s.CreateVerification(ctx, v, one); err != nil {
			t.Fatalf("CreateVerification: %v", err)
		}
		if err := s.CreateVerification(ctx, newVerification(a.ID), one); err == nil {
			t.Fatal("second create within an allowance of 1 succeeded")
		}
		if ids, err := s.ExpireDue(ctx, base, 10); err != nil || len(ids) != 1 {
			t.Fatalf("ExpireDue = %v, %v", ids, err)
		}
		if err := s.CreateVerification(ctx, newVerification(a.ID), one); err != nil {
			t.Fatalf("create after expiry released the slot: %v", err)
		}
	})

	t.Run("ConcurrentSweepers", func(t *testing.T) {
		t.Parallel()
		s, a := fresh(t)
		due := seed(t, s, a, 8) // 16 due
		const sweepers = 4
		var mu sync.Mutex
		var got []string
		var wg sync.WaitGroup
		for range sweepers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					ids, err := s.ExpireDue(ctx, base, 3)
					if err != nil {
						t.Errorf("ExpireDue: %v", err)
						return
					}
					if len(ids) == 0 {
						return
					}
					mu.Lock()
					got = append(got, ids...)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		slices.Sort(got)
		if !slices.Equal(got, due) {
			t.Fatalf("sweepers together expired %d (%v); want each of %d exactly once", len(got), got, len(due))
		}
	})
}
