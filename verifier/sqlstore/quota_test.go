package sqlstore

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

// The stripes' edge cases, which storetest's quota tests (the rows' count
// whatever the order of events) reach only by chance: after every step the
// counters must keep quota.go's invariant, and a refill must spread the
// room left evenly, which the fast path's first draw relies on.
func TestQuotaStripes(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			db := migrated(t, d.newDSN(t))
			ctx := context.Background()
			period := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
			account := func(t *testing.T) string {
				a, err := verifier.NewAccount(uuid.NewString()+"@example.com", "stripes password", period)
				if err != nil {
					t.Fatal(err)
				}
				if err := db.CreateAccount(ctx, a); err != nil {
					t.Fatal(err)
				}
				return a.ID
			}
			create := func(accountID string, limit int) error {
				return db.CreateVerification(ctx, countedVerification(accountID, period), verifier.Allowance{Limit: limit, Since: period})
			}
			// creates runs n creates at once and returns how many succeeded;
			// any failure but the quota's fails the test.
			creates := func(t *testing.T, accountID string, limit, n int) int {
				t.Helper()
				var wg sync.WaitGroup
				errs := make([]error, n)
				for i := range n {
					wg.Add(1)
					go func() { defer wg.Done(); errs[i] = create(accountID, limit) }()
				}
				wg.Wait()
				ok := 0
				for _, err := range errs {
					switch {
					case err == nil:
						ok++
					case !errors.Is(err, verifier.ErrQuotaExceeded):
						t.Fatalf("create: %v", err)
					}
				}
				return ok
			}

			t.Run("AllowanceBelowStripes", func(t *testing.T) {
				// Most stripes' caps are 0: the first draw misses and the
				// scan finds the few with room.
				a := account(t)
				if ok := creates(t, a, 3, 12); ok != 3 {
					t.Fatalf("%d of 12 concurrent creates succeeded against an allowance of 3", ok)
				}
				wantSlots(t, db, a, period, 3, 3)
				if err := create(a, 3); !errors.Is(err, verifier.ErrQuotaExceeded) {
					t.Fatalf("fourth create of 3: %v", err)
				}
			})

			t.Run("OneStripeWithRoom", func(t *testing.T) {
				// 2 × stripes - 1 used of 2 × stripes: one stripe has room, so
				// almost every first draw lands on a full one.
				a := account(t)
				const limit = 2 * stripes
				for i := range limit - 1 {
					if err := create(a, limit); err != nil {
						t.Fatalf("create %d of %d: %v", i+1, limit, err)
					}
				}
				slots := wantSlots(t, db, a, period, limit, limit-1)
				withRoom := 0
				for _, s := range slots {
					if s.used < s.cap {
						withRoom++
					}
				}
				if withRoom != 1 {
					t.Fatalf("%d stripes with room; want 1: %+v", withRoom, slots)
				}
				if ok := creates(t, a, limit, 8); ok != 1 {
					t.Fatalf("%d of 8 concurrent creates succeeded against the last slot", ok)
				}
				wantSlots(t, db, a, period, limit, limit)
			})

			t.Run("RefillSpreadsRoom", func(t *testing.T) {
				// A raised allowance recuts: the room left (here 2 per
				// stripe, plus 5 stripes with one more) is on every stripe.
				a := account(t)
				for range 40 {
					if err := create(a, 50); err != nil {
						t.Fatal(err)
					}
				}
				if err := create(a, 2*stripes+45); err != nil {
					t.Fatalf("create under a raised allowance: %v", err)
				}
				wantSlots(t, db, a, period, 2*stripes+45, 41)
				if ok := creates(t, a, 2*stripes+45, 2*stripes+45); ok != 2*stripes+45-41 {
					t.Fatalf("%d creates succeeded against %d free slots", ok, 2*stripes+45-41)
				}
				wantSlots(t, db, a, period, 2*stripes+45, 2*stripes+45)
			})
		})
	}
}

// slot is one stripe's counter.
type slot struct{ allowance, cap, used int64 }

// wantSlots reads an account's core stripes of period and checks
// quota.go's invariant for allowance and used holders, and that the room
// left differs by at most one between stripes.
func wantSlots(t *testing.T, db *DB, accountID string, period time.Time, allowance, used int64) []slot {
	t.Helper()
	rows, err := db.r.QueryContext(context.Background(), db.sql(q(`SELECT allowance, cap, used FROM quota_slots
		WHERE account_id = $1 AND type = $2 AND period_start = $3 ORDER BY stripe`)), accountID, string(verifier.TypeCore), ts(period))
	if err != nil {
		t.Fatal(err)
	}
	slots, err := collect(rows, func(r scanner) (slot, error) {
		var s slot
		return s, r.Scan(&s.allowance, &s.cap, &s.used)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(slots) != stripes {
		t.Fatalf("%d stripes; want %d", len(slots), stripes)
	}
	var caps, usedSum int64
	minRoom, maxRoom := slots[0].cap-slots[0].used, slots[0].cap-slots[0].used
	for _, s := range slots {
		if s.allowance != allowance || s.used > s.cap || s.used < 0 {
			t.Fatalf("stripe %+v breaks the invariant (allowance %d): %+v", s, allowance, slots)
		}
		caps, usedSum = caps+s.cap, usedSum+s.used
		minRoom, maxRoom = min(minRoom, s.cap-s.used), max(maxRoom, s.cap-s.used)
	}
	if caps != allowance || usedSum != used {
		t.Fatalf("caps sum to %d, used to %d; want %d and %d: %+v", caps, usedSum, allowance, used, slots)
	}
	if maxRoom-minRoom > 1 {
		t.Errorf("room left from %d to %d per stripe; want it spread evenly: %+v", minRoom, maxRoom, slots)
	}
	return slots
}

// countedVerification is a pending core verification of accountID created
// at the start of period.
func countedVerification(accountID string, period time.Time) verifier.Verification {
	token := make([]byte, 32)
	_, _ = rand.Read(token)
	return verifier.Verification{
		ID: uuid.NewString(), AccountID: accountID, TokenHash: token, Status: verifier.StatusPending, Type: verifier.TypeCore,
		Options: []byte(`{"requested_fields":["dob"],"encryption_key_mode":"none"}`), LifetimeDays: 14,
		ExpiresAt: period.Add(14 * 24 * time.Hour), CreatedAt: period, UpdatedAt: period,
	}
}
