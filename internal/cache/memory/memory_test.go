package memory_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/cachetest"
	"github.com/idgate/idgate/internal/cache/memory"
)

func TestConformance(t *testing.T) {
	cachetest.Run(t, func(_ *testing.T, now func() time.Time) cache.Cache {
		return memory.New(now)
	})
}

var ctx = context.Background()

func TestEvictsLeastRecentlyUsedWithinBudget(t *testing.T) {
	// Room for three entries of 1-byte keys and 100-byte values (plus the
	// per-entry overhead), not four.
	c := memory.New(nil, memory.WithMaxBytes(3*(1+100+128)))
	value := make([]byte, 100)
	for _, k := range []string{"a", "b", "c"} {
		require.NoError(t, c.Set(ctx, k, value, time.Minute))
	}
	_, err := c.Get(ctx, "a") // a is now the most recently used
	require.NoError(t, err)
	require.NoError(t, c.Set(ctx, "d", value, time.Minute))

	_, err = c.Get(ctx, "b")
	assert.ErrorIs(t, err, cache.ErrNotFound, "b was least recently used")
	for _, k := range []string{"a", "c", "d"} {
		_, err := c.Get(ctx, k)
		assert.NoError(t, err, k)
	}
	assert.Equal(t, 3*(1+100+128), c.Bytes())
}

func TestBudgetHoldsUnderChurn(t *testing.T) {
	const budget = 64 << 10
	c := memory.New(nil, memory.WithMaxBytes(budget))
	for i := range 5000 {
		require.NoError(t, c.Set(ctx, fmt.Sprintf("key:%d", i), make([]byte, i%700), time.Hour))
		require.LessOrEqual(t, c.Bytes(), budget)
	}
	for i := range 5000 {
		require.NoError(t, c.Delete(ctx, fmt.Sprintf("key:%d", i)))
	}
	assert.Zero(t, c.Bytes(), "accounting returns to zero")
}

func TestRejectsAnEntryLargerThanTheBudget(t *testing.T) {
	c := memory.New(nil, memory.WithMaxBytes(1024))
	require.NoError(t, c.Set(ctx, "small", []byte("v"), time.Minute))
	err := c.Set(ctx, "big", make([]byte, 1024), time.Minute)
	assert.True(t, errors.Is(err, memory.ErrTooLarge), "got %v", err)
	_, err = c.Get(ctx, "small")
	assert.NoError(t, err, "a rejected entry evicts nothing")
}

func TestExpiredEntriesFreeTheirBytesWhenRead(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := memory.New(func() time.Time { return now })
	require.NoError(t, c.Set(ctx, "k", make([]byte, 50), time.Second))
	require.Positive(t, c.Bytes())
	now = now.Add(time.Second)
	_, err := c.Get(ctx, "k")
	require.ErrorIs(t, err, cache.ErrNotFound)
	assert.Zero(t, c.Bytes())
}
