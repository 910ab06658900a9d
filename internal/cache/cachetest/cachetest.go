// Package cachetest is the conformance suite every cache.Cache backend must
// pass, driven by a manual clock: round trips of arbitrary bytes, overwrite,
// expiry to the millisecond, delete, key independence, value isolation and
// concurrent use.
package cachetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/testkit"
)

// NewCache builds a fresh, empty cache that reads the time from now.
type NewCache func(t *testing.T, now func() time.Time) cache.Cache

// Run runs the whole suite against caches built by newCache, one per
// subtest. TTLs are minutes long so that a backend whose server also
// expires keys in real time cannot drop them while a test runs.
func Run(t *testing.T, newCache NewCache) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *harness)
	}{
		{"MissOnAbsentKey", testMissOnAbsentKey},
		{"RoundTrip", testRoundTrip},
		{"OverwriteReplacesValueAndTTL", testOverwrite},
		{"ExpiresAfterTTL", testExpiry},
		{"Delete", testDelete},
		{"KeysIndependent", testKeysIndependent},
		{"ValuesAreCopied", testValuesAreCopied},
		{"InvalidTTL", testInvalidTTL},
		{"Concurrent", testConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testkit.NewClock()
			tc.fn(t, &harness{cache: newCache(t, c.Now), clock: c})
		})
	}
}

type harness struct {
	cache cache.Cache
	clock *testkit.Clock
}

var ctx = context.Background()

func (h *harness) set(t *testing.T, key string, value []byte, ttl time.Duration) {
	t.Helper()
	require.NoError(t, h.cache.Set(ctx, key, value, ttl), "Set(%q)", key)
}

func (h *harness) hit(t *testing.T, key string, want []byte) {
	t.Helper()
	got, err := h.cache.Get(ctx, key)
	require.NoError(t, err, "Get(%q)", key)
	require.True(t, bytes.Equal(want, got), "Get(%q) = %q, want %q", key, got, want)
}

func (h *harness) miss(t *testing.T, key string) {
	t.Helper()
	got, err := h.cache.Get(ctx, key)
	require.Truef(t, errors.Is(err, cache.ErrNotFound), "Get(%q) = %q, %v; want ErrNotFound", key, got, err)
}

func testMissOnAbsentKey(t *testing.T, h *harness) {
	h.miss(t, "verification:store-1:cart-1")
}

func testRoundTrip(t *testing.T, h *harness) {
	binary := []byte{0, 1, 2, 0xfe, 0xff, 0, '\n', '"'}
	h.set(t, "binary", binary, time.Minute)
	h.hit(t, "binary", binary)

	h.set(t, "empty", []byte{}, time.Minute)
	h.hit(t, "empty", nil)

	large := bytes.Repeat([]byte("idgate "), 1<<17) // 896 KiB
	h.set(t, "large", large, time.Minute)
	h.hit(t, "large", large)

	h.set(t, "key with spaces:and/üñí", []byte("v"), time.Minute)
	h.hit(t, "key with spaces:and/üñí", []byte("v"))
}

func testOverwrite(t *testing.T, h *harness) {
	h.set(t, "k", []byte("pending"), 10*time.Minute)
	h.set(t, "k", []byte("verified"), 2*time.Minute)
	h.hit(t, "k", []byte("verified"))
	// The second TTL replaced the first.
	h.clock.Advance(2 * time.Minute)
	h.miss(t, "k")
}

func testExpiry(t *testing.T, h *harness) {
	h.set(t, "k", []byte("v"), time.Minute)
	h.clock.Advance(time.Minute - time.Millisecond)
	h.hit(t, "k", []byte("v"))
	h.clock.Advance(time.Millisecond)
	h.miss(t, "k")
	// Setting again after expiry works as for a new key.
	h.set(t, "k", []byte("w"), time.Minute)
	h.hit(t, "k", []byte("w"))
}

func testDelete(t *testing.T, h *harness) {
	h.set(t, "k", []byte("v"), time.Minute)
	require.NoError(t, h.cache.Delete(ctx, "k"))
	h.miss(t, "k")
	require.NoError(t, h.cache.Delete(ctx, "k"), "deleting an absent key")
	require.NoError(t, h.cache.Delete(ctx, "never-set"))
}

func testKeysIndependent(t *testing.T, h *harness) {
	h.set(t, "a", []byte("1"), time.Minute)
	h.set(t, "b", []byte("2"), 5*time.Minute)
	require.NoError(t, h.cache.Delete(ctx, "a"))
	h.miss(t, "a")
	h.hit(t, "b", []byte("2"))
	h.set(t, "a", []byte("3"), time.Minute)
	h.clock.Advance(time.Minute)
	h.miss(t, "a")
	h.hit(t, "b", []byte("2"))
}

func testValuesAreCopied(t *testing.T, h *harness) {
	in := []byte("verified")
	h.set(t, "k", in, time.Minute)
	in[0] = 'X'
	h.hit(t, "k", []byte("verified"))

	out, err := h.cache.Get(ctx, "k")
	require.NoError(t, err)
	out[0] = 'Y'
	h.hit(t, "k", []byte("verified"))
}

func testInvalidTTL(t *testing.T, h *harness) {
	for _, ttl := range []time.Duration{0, -time.Second} {
		err := h.cache.Set(ctx, "k", []byte("v"), ttl)
		assert.Truef(t, errors.Is(err, cache.ErrInvalidTTL), "ttl %s: got %v", ttl, err)
	}
	h.miss(t, "k")
}

func testConcurrent(t *testing.T, h *harness) {
	const workers, rounds = 8, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*3)
	for w := range workers {
		wg.Go(func() {
			own := fmt.Sprintf("own:%d", w)
			for i := range rounds {
				value := fmt.Appendf(nil, "%d:%d", w, i)
				for _, key := range []string{"shared", own} {
					if err := h.cache.Set(ctx, key, value, time.Minute); err != nil {
						errs <- err
					}
				}
				got, err := h.cache.Get(ctx, own)
				if err != nil {
					errs <- err
				} else if !bytes.Equal(got, value) {
					errs <- fmt.Errorf("%s = %q, want %q", own, got, value)
				}
				if _, err := h.cache.Get(ctx, "shared"); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	// The shared key holds one intact write, not a mix of two.
	got, err := h.cache.Get(ctx, "shared")
	require.NoError(t, err)
	var w, i int
	_, err = fmt.Sscanf(string(got), "%d:%d", &w, &i)
	require.NoError(t, err, "shared = %q", got)
	assert.Equal(t, fmt.Sprintf("%d:%d", w, i), string(got))
	assert.True(t, w >= 0 && w < workers && i >= 0 && i < rounds, "shared = %q", got)
}
