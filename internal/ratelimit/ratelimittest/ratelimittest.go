// Package ratelimittest is the conformance suite every ratelimit.Limiter
// backend must pass. It drives the limiter with a manual clock and pins the
// exact GCRA results: burst size, Remaining, RetryAfter, ResetAfter, refill,
// key independence, atomicity under concurrency and the documented limits (docs/decisions.md).
package ratelimittest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/testkit"
)

// NewLimiter builds a fresh, empty limiter that reads the time from now.
type NewLimiter func(t *testing.T, now func() time.Time) ratelimit.Limiter

// Run runs the whole suite against limiters built by newLimiter, one per
// subtest.
func Run(t *testing.T, newLimiter NewLimiter) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *harness)
	}{
		{"BurstThenDeny", testBurstThenDeny},
		{"DelaysFollowTheClock", testDelaysFollowTheClock},
		{"RefillOneIntervalAtATime", testRefillOneIntervalAtATime},
		{"BurstNeverExceedsRate", testBurstNeverExceedsRate},
		{"UnevenInterval", testUnevenInterval},
		{"KeysIndependent", testKeysIndependent},
		{"Concurrent", testConcurrent},
		{"SpecLimits", testSpecLimits},
		{"InvalidLimit", testInvalidLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testkit.NewClock()
			tc.fn(t, &harness{limiter: newLimiter(t, c.Now), clock: c})
		})
	}
}

type harness struct {
	limiter ratelimit.Limiter
	clock   *testkit.Clock
}

func (h *harness) allow(t *testing.T, key string, l ratelimit.Limit) ratelimit.Result {
	t.Helper()
	r, err := h.limiter.Allow(context.Background(), key, l)
	require.NoError(t, err, "Allow(%q, %+v)", key, l)
	require.Equal(t, l, r.Limit, "Result.Limit echoes the limit")
	return r
}

// burst spends a full burst on key, checking each step.
func (h *harness) burst(t *testing.T, key string, l ratelimit.Limit) {
	t.Helper()
	interval := l.Interval()
	for i := 1; i <= l.Rate; i++ {
		r := h.allow(t, key, l)
		require.True(t, r.Allowed, "event %d of a burst of %d", i, l.Rate)
		require.Equal(t, l.Rate-i, r.Remaining, "Remaining after event %d", i)
		require.Zero(t, r.RetryAfter, "RetryAfter after event %d", i)
		require.Equal(t, time.Duration(i)*interval, r.ResetAfter, "ResetAfter after event %d", i)
	}
}

// expect checks one call's outcome to the microsecond (the backends' unit,
// finer than the millisecond the headers need).
func (h *harness) expect(t *testing.T, key string, l ratelimit.Limit, allowed bool, remaining int, retryAfter, resetAfter time.Duration) {
	t.Helper()
	r := h.allow(t, key, l)
	want := ratelimit.Result{Allowed: allowed, Limit: l, Remaining: remaining, RetryAfter: retryAfter, ResetAfter: resetAfter}
	require.Equal(t, want, r)
}

var fivePerMinute = ratelimit.Limit{Rate: 5, Period: time.Minute}

func testBurstThenDeny(t *testing.T, h *harness) {
	h.burst(t, "k", fivePerMinute)
	// Denials do not consume: the same answer every time.
	for range 3 {
		h.expect(t, "k", fivePerMinute, false, 0, 12*time.Second, time.Minute)
	}
}

func testDelaysFollowTheClock(t *testing.T, h *harness) {
	h.burst(t, "k", fivePerMinute)
	h.clock.Advance(4321 * time.Millisecond)
	h.expect(t, "k", fivePerMinute, false, 0, 7679*time.Millisecond, 55679*time.Millisecond)
	h.clock.Advance(7678 * time.Millisecond)
	h.expect(t, "k", fivePerMinute, false, 0, time.Millisecond, 48001*time.Millisecond)
	h.clock.Advance(time.Millisecond)
	h.expect(t, "k", fivePerMinute, true, 0, 0, time.Minute)
	h.expect(t, "k", fivePerMinute, false, 0, 12*time.Second, time.Minute)
	// Half a period idle gives back two and a half intervals: two events.
	h.clock.Advance(30 * time.Second)
	h.expect(t, "k", fivePerMinute, true, 1, 0, 42*time.Second)
	h.expect(t, "k", fivePerMinute, true, 0, 0, 54*time.Second)
	h.expect(t, "k", fivePerMinute, false, 0, 6*time.Second, 54*time.Second)
}

func testRefillOneIntervalAtATime(t *testing.T, h *harness) {
	l := ratelimit.Limit{Rate: 10, Period: time.Second}
	h.burst(t, "k", l)
	for range 3 {
		h.clock.Advance(l.Interval() - time.Millisecond)
		h.expect(t, "k", l, false, 0, time.Millisecond, l.Period-l.Interval()+time.Millisecond)
		h.clock.Advance(time.Millisecond)
		h.expect(t, "k", l, true, 0, 0, time.Second)
	}
	// A full period idle restores the whole burst.
	h.clock.Advance(l.Period)
	h.burst(t, "k", l)
}

func testBurstNeverExceedsRate(t *testing.T, h *harness) {
	// However long a key idles, the next burst is still Rate.
	h.allow(t, "k", fivePerMinute)
	h.clock.Advance(240 * time.Hour)
	h.burst(t, "k", fivePerMinute)
	h.expect(t, "k", fivePerMinute, false, 0, 12*time.Second, time.Minute)
}

func testUnevenInterval(t *testing.T, h *harness) {
	// 3 per second: the interval 333.333 ms is not a whole millisecond.
	l := ratelimit.Limit{Rate: 3, Period: time.Second}
	h.burst(t, "k", l)
	h.expect(t, "k", l, false, 0, 333333*time.Microsecond, 999999*time.Microsecond)
	h.clock.Advance(333 * time.Millisecond)
	h.expect(t, "k", l, false, 0, 333*time.Microsecond, 666999*time.Microsecond)
	h.clock.Advance(time.Millisecond)
	h.expect(t, "k", l, true, 0, 0, 999332*time.Microsecond)
}

func testKeysIndependent(t *testing.T, h *harness) {
	h.burst(t, "auth:ip:203.0.113.7", fivePerMinute)
	h.burst(t, "auth:ip:203.0.113.8", fivePerMinute)
	// Same key text under another limit shape is still only the key.
	hourly := ratelimit.Limit{Rate: 30, Period: time.Hour}
	h.burst(t, "key:1", hourly)
	h.expect(t, "auth:ip:203.0.113.7", fivePerMinute, false, 0, 12*time.Second, time.Minute)
	h.expect(t, "key:1", hourly, false, 0, 2*time.Minute, time.Hour)
	h.expect(t, "key:2", hourly, true, 29, 0, 2*time.Minute)
}

func testConcurrent(t *testing.T, h *harness) {
	l := ratelimit.Limit{Rate: 10, Period: time.Minute}
	const callers = 100
	var (
		mu        sync.Mutex
		remaining []int
		denied    int
		wg        sync.WaitGroup
		errs      = make(chan error, callers)
	)
	for range callers {
		wg.Go(func() {
			r, err := h.limiter.Allow(context.Background(), "shared", l)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if r.Allowed {
				remaining = append(remaining, r.Remaining)
			} else {
				denied++
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, remaining, l.Rate, "exactly Rate of %d concurrent callers allowed", callers)
	assert.Equal(t, callers-l.Rate, denied)
	// Each allowed caller saw a distinct count: no two read the same state.
	sort.Ints(remaining)
	for i, r := range remaining {
		assert.Equal(t, i, r)
	}
}

func testSpecLimits(t *testing.T, h *harness) {
	// docs/decisions.md, Rate limits.
	for _, tc := range []struct {
		name     string
		limit    ratelimit.Limit
		interval time.Duration
	}{
		{"auth 5 per minute", ratelimit.Limit{Rate: 5, Period: time.Minute}, 12 * time.Second},
		{"create 100 per hour", ratelimit.Limit{Rate: 100, Period: time.Hour}, 36 * time.Second},
		{"get 300 per hour", ratelimit.Limit{Rate: 300, Period: time.Hour}, 12 * time.Second},
		{"integration key 30 per hour", ratelimit.Limit{Rate: 30, Period: time.Hour}, 2 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := fmt.Sprintf("spec:%d/%s", tc.limit.Rate, tc.limit.Period)
			h.burst(t, key, tc.limit)
			h.expect(t, key, tc.limit, false, 0, tc.interval, tc.limit.Period)
			h.clock.Advance(tc.interval - time.Millisecond)
			h.expect(t, key, tc.limit, false, 0, time.Millisecond, tc.limit.Period-tc.interval+time.Millisecond)
			h.clock.Advance(time.Millisecond)
			h.expect(t, key, tc.limit, true, 0, 0, tc.limit.Period)
			h.clock.Advance(tc.limit.Period) // leave the next shape a quiet clock
		})
	}
}

func testInvalidLimit(t *testing.T, h *harness) {
	for _, l := range []ratelimit.Limit{{Rate: 0, Period: time.Minute}, {Rate: 5, Period: 0}, {Rate: -3, Period: -time.Hour}} {
		_, err := h.limiter.Allow(context.Background(), "k", l)
		assert.Truef(t, errors.Is(err, ratelimit.ErrInvalidLimit), "%+v: got %v", l, err)
	}
	// A rejected limit leaves the key untouched.
	h.burst(t, "k", fivePerMinute)
}
