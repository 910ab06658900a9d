package redis_test

import (
	"context"
	"errors"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/cachetest"
	"github.com/idgate/idgate/internal/cache/redis"
	"github.com/idgate/idgate/internal/testkit"
)

func TestConformance(t *testing.T) {
	cachetest.Run(t, func(t *testing.T, now func() time.Time) cache.Cache {
		client, prefix := testkit.Redis(t)
		return redis.New(client, prefix, now)
	})
}

var ctx = context.Background()

func TestKeysCarryTheTTL(t *testing.T) {
	client, prefix := testkit.Redis(t)
	c := redis.New(client, prefix, nil)
	require.NoError(t, c.Set(ctx, "k", []byte("v"), 90*time.Second))
	ttl := client.PTTL(ctx, prefix+"k").Val()
	assert.LessOrEqual(t, ttl, 90*time.Second)
	assert.Greater(t, ttl, 80*time.Second)

	// Sub-millisecond TTLs round up rather than to "no expiry".
	require.NoError(t, c.Set(ctx, "tiny", []byte("v"), time.Microsecond))
	assert.NotEqual(t, time.Duration(-1), client.PTTL(ctx, prefix+"tiny").Val())
}

func TestInstancesShareEntries(t *testing.T) {
	client, prefix := testkit.Redis(t)
	a, b := redis.New(client, prefix, nil), redis.New(client, prefix, nil)
	require.NoError(t, a.Set(ctx, "status:cart-1", []byte("verified"), time.Minute))
	got, err := b.Get(ctx, "status:cart-1")
	require.NoError(t, err)
	assert.Equal(t, []byte("verified"), got)
	require.NoError(t, b.Delete(ctx, "status:cart-1")) // webhook invalidation on another instance
	_, err = a.Get(ctx, "status:cart-1")
	assert.ErrorIs(t, err, cache.ErrNotFound)
}

func TestCorruptEntryIsAnErrorNotAMiss(t *testing.T) {
	client, prefix := testkit.Redis(t)
	require.NoError(t, client.Set(ctx, prefix+"k", "written by something else", time.Minute).Err())
	_, err := redis.New(client, prefix, nil).Get(ctx, "k")
	require.Error(t, err)
	assert.False(t, errors.Is(err, cache.ErrNotFound))
	assert.Contains(t, err.Error(), "corrupt cache entry")
}

func TestUnreachableRedisIsAnError(t *testing.T) {
	client := goredis.NewClient(&goredis.Options{
		Addr: "127.0.0.1:1", MaxRetries: -1, DialerRetries: 1, DialerRetryTimeout: time.Millisecond,
	})
	t.Cleanup(func() { _ = client.Close() })
	c := redis.New(client, "x:", nil)
	_, err := c.Get(ctx, "k")
	assert.ErrorContains(t, err, `cache get "k": redis:`)
	assert.False(t, errors.Is(err, cache.ErrNotFound), "an outage is not a miss")
	assert.ErrorContains(t, c.Set(ctx, "k", []byte("v"), time.Minute), `cache set "k": redis:`)
	assert.ErrorContains(t, c.Delete(ctx, "k"), `cache delete "k": redis:`)
}
