package redis_test

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgate/idgate/internal/seen"
	"github.com/idgate/idgate/internal/seen/redis"
	"github.com/idgate/idgate/internal/seen/seentest"
	"github.com/idgate/idgate/internal/testkit"
)

func TestConformance(t *testing.T) {
	seentest.Run(t, func(t *testing.T, now func() time.Time) seen.Set {
		client, prefix := testkit.Redis(t)
		return redis.New(client, prefix, now)
	})
}

var ctx = context.Background()

// Two instances on one Redis: a key one recorded is seen by the other, and
// the key carries a Redis TTL so the memory is reclaimed.
func TestInstancesShareRecords(t *testing.T) {
	client, prefix := testkit.Redis(t)
	a, b := redis.New(client, prefix, nil), redis.New(client, prefix, nil)
	ok, err := a.Add(ctx, "load:jti-1", 90*time.Second)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = b.Add(ctx, "load:jti-1", 90*time.Second)
	require.NoError(t, err)
	assert.False(t, ok, "instance b took a payload instance a had used")
	ttl := client.PTTL(ctx, prefix+"load:jti-1").Val()
	assert.LessOrEqual(t, ttl, 90*time.Second)
	assert.Greater(t, ttl, 80*time.Second)
}

func TestUnreachableRedisIsAnError(t *testing.T) {
	client := goredis.NewClient(&goredis.Options{
		Addr: "127.0.0.1:1", MaxRetries: -1, DialerRetries: 1, DialerRetryTimeout: time.Millisecond,
	})
	t.Cleanup(func() { _ = client.Close() })
	ok, err := redis.New(client, "x:", nil).Add(ctx, "k", time.Minute)
	assert.ErrorContains(t, err, `seen add "k": redis:`)
	assert.False(t, ok, "an outage is not a new key")
}
