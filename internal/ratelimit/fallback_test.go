package ratelimit_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/ratelimit/redis"
	"github.com/idgate/idgate/internal/testkit"
)

// deadRedis is a limiter whose Redis refuses connections.
func deadRedis(t *testing.T, now func() time.Time) ratelimit.Limiter {
	client := goredis.NewClient(&goredis.Options{
		Addr: "127.0.0.1:1", MaxRetries: -1, DialerRetries: 1, DialerRetryTimeout: time.Millisecond,
	})
	t.Cleanup(func() { _ = client.Close() })
	return redis.New(client, "dead:", now)
}

// errorLog records what Fallback reports.
type errorLog struct{ errs []error }

func (l *errorLog) record(err error) { l.errs = append(l.errs, err) }

var authLimit = ratelimit.Limit{Rate: 5, Period: time.Minute}

func TestFallbackKeepsLimitsWhileRedisIsDown(t *testing.T) {
	clock := testkit.NewClock()
	var log errorLog
	l := ratelimit.Fallback(deadRedis(t, clock.Now), memory.New(clock.Now), log.record,
		ratelimit.WithClock(clock.Now), ratelimit.WithProbeInterval(10*time.Second))
	ctx := context.Background()

	for i := range authLimit.Rate {
		r, err := l.Allow(ctx, "auth:ip:203.0.113.7", authLimit)
		require.NoError(t, err)
		require.True(t, r.Allowed, "event %d", i+1)
		require.Equal(t, authLimit.Rate-1-i, r.Remaining)
	}
	r, err := l.Allow(ctx, "auth:ip:203.0.113.7", authLimit)
	require.NoError(t, err)
	assert.False(t, r.Allowed, "the in-process limiter still enforces the limit")
	assert.Equal(t, 12*time.Second, r.RetryAfter)

	// Reported once, then bypassed until the probe interval has passed.
	require.Len(t, log.errs, 1)
	assert.Contains(t, log.errs[0].Error(), "redis")
	clock.Advance(10*time.Second - time.Nanosecond)
	_, err = l.Allow(ctx, "k", authLimit)
	require.NoError(t, err)
	assert.Len(t, log.errs, 1)
	clock.Advance(time.Nanosecond)
	_, err = l.Allow(ctx, "k", authLimit)
	require.NoError(t, err)
	assert.Len(t, log.errs, 2, "the probe found Redis still down")
}

// switchable is a Redis limiter whose server comes back when up is set.
type switchable struct {
	up         atomic.Bool
	live, dead ratelimit.Limiter
}

func (s *switchable) Allow(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Result, error) {
	if s.up.Load() {
		return s.live.Allow(ctx, key, limit)
	}
	return s.dead.Allow(ctx, key, limit)
}

func TestFallbackReturnsToRedisWhenItAnswers(t *testing.T) {
	client, prefix := testkit.Redis(t)
	clock := testkit.NewClock()
	primary := &switchable{live: redis.New(client, prefix, clock.Now), dead: deadRedis(t, clock.Now)}
	var log errorLog
	l := ratelimit.Fallback(primary, memory.New(clock.Now), log.record, ratelimit.WithClock(clock.Now))
	ctx := context.Background()

	for range 3 {
		_, err := l.Allow(ctx, "acct:1", authLimit)
		require.NoError(t, err)
	}
	require.Len(t, log.errs, 1)
	require.Zero(t, client.Exists(ctx, prefix+"acct:1").Val(), "nothing reached Redis while down")

	primary.up.Store(true)
	clock.Advance(ratelimit.DefaultProbeInterval)
	r, err := l.Allow(ctx, "acct:1", authLimit)
	require.NoError(t, err)
	assert.Equal(t, authLimit.Rate-1, r.Remaining, "Redis's own count, not the in-process one")
	assert.EqualValues(t, 1, client.Exists(ctx, prefix+"acct:1").Val())
	r, err = l.Allow(ctx, "acct:1", authLimit)
	require.NoError(t, err)
	assert.Equal(t, authLimit.Rate-2, r.Remaining, "and it stays on Redis")
	assert.Len(t, log.errs, 1)
}

func TestFallbackPassesThroughErrorsThatAreNotAnOutage(t *testing.T) {
	client, prefix := testkit.Redis(t)
	clock := testkit.NewClock()
	var log errorLog
	l := ratelimit.Fallback(redis.New(client, prefix, clock.Now), memory.New(clock.Now), log.record,
		ratelimit.WithClock(clock.Now))

	_, err := l.Allow(context.Background(), "k", ratelimit.Limit{Rate: 0, Period: time.Minute})
	assert.True(t, errors.Is(err, ratelimit.ErrInvalidLimit), "got %v", err)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = l.Allow(ctx, "k", authLimit)
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)

	assert.Empty(t, log.errs)
	// Redis was never marked down: the next call is counted there.
	_, err = l.Allow(context.Background(), "k", authLimit)
	require.NoError(t, err)
	assert.EqualValues(t, 1, client.Exists(context.Background(), prefix+"k").Val())
}

// counting counts the calls that reach a limiter.
type counting struct {
	ratelimit.Limiter
	calls atomic.Int64
}

func (c *counting) Allow(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Result, error) {
	c.calls.Add(1)
	return c.Limiter.Allow(ctx, key, limit)
}

func TestFallbackProbesOnceAtATime(t *testing.T) {
	clock := testkit.NewClock()
	primary := &counting{Limiter: deadRedis(t, clock.Now)}
	var reported atomic.Int64
	l := ratelimit.Fallback(primary, memory.New(clock.Now), func(error) { reported.Add(1) },
		ratelimit.WithClock(clock.Now))
	ctx := context.Background()
	_, err := l.Allow(ctx, "k", authLimit)
	require.NoError(t, err)
	require.EqualValues(t, 1, primary.calls.Load())

	clock.Advance(ratelimit.DefaultProbeInterval)
	done := make(chan error, 50)
	for range cap(done) {
		go func() {
			_, err := l.Allow(ctx, "k", ratelimit.Limit{Rate: 100, Period: time.Minute})
			done <- err
		}()
	}
	for range cap(done) {
		require.NoError(t, <-done)
	}
	assert.EqualValues(t, 2, primary.calls.Load(), "one probe among 50 concurrent callers")
	assert.EqualValues(t, 2, reported.Load())
}
