// Package redis is the seen.Set shared by every idgate instance using one
// Redis (go-redis v9, standalone or cluster: one key per call).
//
// As in internal/cache/redis, expiry is judged by the injected clock
// against the expiry stored as the value, and the key's Redis TTL (the same
// length) only reclaims the memory; instances need synchronised clocks.
package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/seen"
)

// addScript records KEYS[1] unless a live record is there, in one step so
// that of two instances adding one key at once exactly one wins. ARGV: now
// and the new expiry in Unix milliseconds, the Redis TTL in milliseconds.
var addScript = goredis.NewScript(`
local exp = tonumber(redis.call('GET', KEYS[1]))
if exp and exp > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`)

// Set is safe for concurrent use.
type Set struct {
	client goredis.UniversalClient
	prefix string
	now    func() time.Time
}

// New returns a Set storing its keys under prefix (e.g. "idgate:seen:") and
// reading the time from now (time.Now if nil).
func New(client goredis.UniversalClient, prefix string, now func() time.Time) *Set {
	if now == nil {
		now = time.Now
	}
	return &Set{client: client, prefix: prefix, now: now}
}

// Add implements seen.Set.
func (s *Set) Add(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if err := seen.CheckTTL(key, ttl); err != nil {
		return false, err
	}
	now := s.now()
	// Milliseconds, rounded up so the record outlives its expiry rather
	// than the other way round; a stored value that is not a number counts
	// as no record (nothing else writes under the prefix).
	ms := ((ttl + time.Millisecond - 1) / time.Millisecond)
	expires := now.UnixMilli() + int64(ms)
	n, err := addScript.Run(ctx, s.client, []string{s.prefix + key}, now.UnixMilli(), expires, int64(ms)).Int()
	if err != nil {
		return false, fmt.Errorf("seen add %q: redis: %w", key, err)
	}
	return n == 1, nil
}
