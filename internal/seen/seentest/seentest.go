// Package seentest is the conformance suite every seen.Set backend must
// pass, driven by a manual clock: a key is new once, then seen until its
// TTL runs out, keys are independent, a refused Add leaves the record as it
// was, and of concurrent Adds of one key exactly one wins.
package seentest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/seen"
	"github.com/idgate/idgate/internal/testkit"
)

// NewSet builds a fresh, empty set that reads the time from now.
type NewSet func(t *testing.T, now func() time.Time) seen.Set

// Run runs the suite against sets built by newSet, one per subtest. TTLs
// are minutes long so that a backend whose server also expires keys in
// real time cannot drop them while a test runs.
func Run(t *testing.T, newSet NewSet) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, seen.Set, *testkit.Clock)
	}{
		{"NewThenSeen", testNewThenSeen},
		{"KeysIndependent", testKeysIndependent},
		{"ExpiryForgets", testExpiryForgets},
		{"SeenLeavesTheRecord", testSeenLeavesTheRecord},
		{"InvalidTTL", testInvalidTTL},
		{"ConcurrentAddsOneWins", testConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testkit.NewClock()
			tc.fn(t, newSet(t, c.Now), c)
		})
	}
}

var ctx = context.Background()

func add(t *testing.T, s seen.Set, key string, ttl time.Duration, want bool) {
	t.Helper()
	got, err := s.Add(ctx, key, ttl)
	require.NoError(t, err, "Add(%q)", key)
	require.Equal(t, want, got, "Add(%q) reported new", key)
}

func testNewThenSeen(t *testing.T, s seen.Set, _ *testkit.Clock) {
	add(t, s, "load:storea1:8c1f", time.Hour, true)
	add(t, s, "load:storea1:8c1f", time.Hour, false)
	add(t, s, "load:storea1:8c1f", time.Minute, false)
	add(t, s, "key with spaces:and/üñí", time.Hour, true)
}

func testKeysIndependent(t *testing.T, s seen.Set, _ *testkit.Clock) {
	add(t, s, "a", time.Hour, true)
	add(t, s, "b", time.Hour, true)
	add(t, s, "a", time.Hour, false)
	add(t, s, "b", time.Hour, false)
	add(t, s, "A", time.Hour, true) // keys are case-sensitive
}

func testExpiryForgets(t *testing.T, s seen.Set, c *testkit.Clock) {
	add(t, s, "k", time.Minute, true)
	c.Advance(time.Minute - time.Millisecond)
	add(t, s, "k", time.Minute, false)
	c.Advance(time.Millisecond)
	add(t, s, "k", 2*time.Minute, true) // forgotten at its expiry: new again, for the new TTL
	c.Advance(2*time.Minute - time.Millisecond)
	add(t, s, "k", time.Minute, false)
}

func testSeenLeavesTheRecord(t *testing.T, s seen.Set, c *testkit.Clock) {
	add(t, s, "k", time.Minute, true)
	c.Advance(30 * time.Second)
	// A refused Add with a longer TTL does not extend the record.
	add(t, s, "k", time.Hour, false)
	c.Advance(30 * time.Second)
	add(t, s, "k", time.Minute, true)
}

func testInvalidTTL(t *testing.T, s seen.Set, _ *testkit.Clock) {
	for _, ttl := range []time.Duration{0, -time.Second} {
		ok, err := s.Add(ctx, "k", ttl)
		assert.Truef(t, errors.Is(err, seen.ErrInvalidTTL), "ttl %s: got %v", ttl, err)
		assert.False(t, ok, "ttl %s reported new", ttl)
	}
	add(t, s, "k", time.Minute, true) // nothing was recorded
}

func testConcurrent(t *testing.T, s seen.Set, _ *testkit.Clock) {
	const workers, keys = 8, 20
	var wg sync.WaitGroup
	wins := make([]atomic.Int32, keys)
	errs := make(chan error, workers*keys)
	for range workers {
		wg.Go(func() {
			for k := range keys {
				ok, err := s.Add(ctx, fmt.Sprintf("jti-%d", k), time.Hour)
				if err != nil {
					errs <- err
				} else if ok {
					wins[k].Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for k := range keys {
		assert.Equal(t, int32(1), wins[k].Load(), "jti-%d was new to %d callers", k, wins[k].Load())
	}
}
