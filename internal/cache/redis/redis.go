// Package redis is the cache.Cache shared by every idgate instance using
// one Redis (go-redis v9, standalone or cluster).
//
// Expiry is judged by the injected clock against an expiry stored with the
// value; the key's Redis TTL (the same length) only reclaims the memory.
// Instances sharing a Redis therefore need synchronised clocks, as for the
// rate limiter.
package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/cache"
)

// Cache is safe for concurrent use.
type Cache struct {
	client goredis.UniversalClient
	prefix string
	now    func() time.Time
}

// New returns a Cache storing its keys under prefix (e.g. "idgate:cache:")
// and reading the time from now (time.Now if nil).
func New(client goredis.UniversalClient, prefix string, now func() time.Time) *Cache {
	if now == nil {
		now = time.Now
	}
	return &Cache{client: client, prefix: prefix, now: now}
}

// Get implements cache.Cache. An entry it cannot read is an error, not a
// miss, so that corruption is seen; it is deleted by the next Set or its TTL.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, error) {
	b, err := c.client.Get(ctx, c.prefix+key).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, cache.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("cache get %q: redis: %w", key, err)
	}
	value, expires, err := decodeEntry(b)
	if err != nil {
		return nil, fmt.Errorf("cache get %q: %w", key, err)
	}
	if !c.now().Before(expires) {
		return nil, cache.ErrNotFound
	}
	return value, nil
}

// Set implements cache.Cache.
func (c *Cache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := cache.CheckTTL(key, ttl); err != nil {
		return err
	}
	// Redis TTLs are whole milliseconds; round up so the memory outlives
	// the logical expiry rather than the other way round.
	redisTTL := (ttl + time.Millisecond - 1).Truncate(time.Millisecond)
	if err := c.client.Set(ctx, c.prefix+key, encodeEntry(value, c.now().Add(ttl)), redisTTL).Err(); err != nil {
		return fmt.Errorf("cache set %q: redis: %w", key, err)
	}
	return nil
}

// Delete implements cache.Cache.
func (c *Cache) Delete(ctx context.Context, key string) error {
	if err := c.client.Del(ctx, c.prefix+key).Err(); err != nil {
		return fmt.Errorf("cache delete %q: redis: %w", key, err)
	}
	return nil
}
