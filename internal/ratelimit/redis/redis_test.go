package redis_test

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/ratelimit/ratelimittest"
	"github.com/idgate/idgate/internal/ratelimit/redis"
	"github.com/idgate/idgate/internal/testkit"
)

func TestConformance(t *testing.T) {
	ratelimittest.Run(t, func(t *testing.T, now func() time.Time) ratelimit.Limiter {
		client, prefix := testkit.Redis(t)
		return redis.New(client, prefix, now)
	})
}

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestKeysExpireWhenBackAtFullBurst(t *testing.T) {
	client, prefix := testkit.Redis(t)
	now := start
	l := redis.New(client, prefix, func() time.Time { return now })
	ctx := context.Background()
	limit := ratelimit.Limit{Rate: 30, Period: time.Hour}

	var last ratelimit.Result
	for range 3 {
		var err error
		last, err = l.Allow(ctx, "key:1", limit)
		require.NoError(t, err)
	}
	require.Equal(t, 6*time.Minute, last.ResetAfter)
	ttl := client.PTTL(ctx, prefix+"key:1").Val()
	// Redis counts the TTL down in real time from the SET just made.
	assert.LessOrEqual(t, ttl, last.ResetAfter)
	assert.Greater(t, ttl, last.ResetAfter-10*time.Second)

	// A denial writes nothing, so it neither moves the TAT nor extends the
	// expiry.
	now = now.Add(time.Minute)
	for range limit.Rate {
		_, err := l.Allow(ctx, "key:2", limit)
		require.NoError(t, err)
	}
	stored := client.Get(ctx, prefix+"key:2").Val()
	r, err := l.Allow(ctx, "key:2", limit)
	require.NoError(t, err)
	require.False(t, r.Allowed)
	assert.Equal(t, stored, client.Get(ctx, prefix+"key:2").Val())
	assert.Greater(t, client.PTTL(ctx, prefix+"key:2").Val(), 59*time.Minute)
}

func TestInstancesShareOneBudget(t *testing.T) {
	client, prefix := testkit.Redis(t)
	now := func() time.Time { return start }
	a, b := redis.New(client, prefix, now), redis.New(client, prefix, now)
	limit := ratelimit.Limit{Rate: 4, Period: time.Minute}
	ctx := context.Background()
	allowed := 0
	for i := range 8 {
		inst := a
		if i%2 == 1 {
			inst = b
		}
		r, err := inst.Allow(ctx, "acct:42", limit)
		require.NoError(t, err)
		if r.Allowed {
			allowed++
		}
	}
	assert.Equal(t, limit.Rate, allowed)
}

func TestUnreachableRedisIsAnError(t *testing.T) {
	client := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	t.Cleanup(func() { _ = client.Close() })
	_, err := redis.New(client, "x:", nil).Allow(context.Background(), "k", ratelimit.Limit{Rate: 1, Period: time.Second})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `rate limit "k": redis:`)
}
