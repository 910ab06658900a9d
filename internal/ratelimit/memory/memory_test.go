package memory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/ratelimit/ratelimittest"
)

func TestConformance(t *testing.T) {
	ratelimittest.Run(t, func(_ *testing.T, now func() time.Time) ratelimit.Limiter {
		return memory.New(now)
	})
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

var perMinute = ratelimit.Limit{Rate: 5, Period: time.Minute}

func allow(t *testing.T, l *memory.Limiter, key string, n int) ratelimit.Result {
	t.Helper()
	var r ratelimit.Result
	for range n {
		var err error
		r, err = l.Allow(context.Background(), key, perMinute)
		require.NoError(t, err)
	}
	return r
}

func TestIdleKeysAreSwept(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := memory.New(clock.now)
	// Sweeps run every max(live keys, 1024) insertions, well below capacity.
	const batch = 1023
	for i := range batch {
		allow(t, l, fmt.Sprintf("ip:%d", i), 1)
	}
	require.Equal(t, batch, l.Len())

	// One interval on, all of them are back at a full burst; the next new
	// key's insertion is the 1024th and sweeps them out.
	clock.t = clock.t.Add(perMinute.Interval())
	allow(t, l, "late", 1)
	assert.Equal(t, 1, l.Len())
}

func TestCapacityEvictsTheKeyNearestReset(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := memory.New(clock.now, memory.WithMaxKeys(3))
	allow(t, l, "busy", 5)
	allow(t, l, "light", 1)
	allow(t, l, "medium", 3)

	allow(t, l, "new", 1)
	assert.Equal(t, 3, l.Len())
	// "light" had the earliest reset and went; the others kept their state.
	assert.Equal(t, 4, allow(t, l, "light", 1).Remaining, "evicted key starts afresh")
	assert.False(t, allow(t, l, "busy", 1).Allowed, "busy key still limited")
}

func TestMemoryStaysBounded(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	const maxKeys = 500
	l := memory.New(clock.now, memory.WithMaxKeys(maxKeys))
	for i := range 20 * maxKeys {
		allow(t, l, fmt.Sprintf("ip:%d", i), 1)
		require.LessOrEqual(t, l.Len(), maxKeys)
		if i%100 == 0 {
			clock.t = clock.t.Add(time.Second)
		}
	}
}

func TestNilClockUsesWallTime(t *testing.T) {
	r, err := memory.New(nil).Allow(context.Background(), "k", perMinute)
	require.NoError(t, err)
	assert.True(t, r.Allowed)
	assert.Equal(t, perMinute.Interval(), r.ResetAfter)
}
