// Package redis is the ratelimit.Limiter shared by every idgate instance
// using one Redis (go-redis v9, standalone or cluster): GCRA in an atomic Lua
// script, one key per limited key, expiring once the key is back at a full
// burst.
//
// The current time is read from the injected clock and passed to the
// script (go-redis/redis_rate reads Redis TIME inside its script and cannot
// be driven by a test clock). Instances sharing a Redis must therefore keep
// their clocks synchronised (NTP): an instance running ahead by d hands out
// up to d/interval extra events, one running behind denies early.
package redis

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/idgate/idgate/internal/ratelimit"
)

//go:embed gcra.lua
var gcraSource string

// gcra is loaded once per server (EVALSHA, falling back to EVAL on NOSCRIPT).
var gcra = goredis.NewScript(gcraSource)

// Limiter is safe for concurrent use.
type Limiter struct {
	client goredis.UniversalClient
	prefix string
	now    func() time.Time
}

// New returns a Limiter storing its keys under prefix (e.g. "idgate:rl:")
// and reading the time from now (time.Now if nil).
func New(client goredis.UniversalClient, prefix string, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{client: client, prefix: prefix, now: now}
}

// Allow implements ratelimit.Limiter. Errors other than an invalid limit
// mean Redis did not answer usefully; see ratelimit.Fallback.
func (l *Limiter) Allow(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Result, error) {
	if err := limit.Validate(); err != nil {
		return ratelimit.Result{}, fmt.Errorf("rate limit %q: %w", key, err)
	}
	reply, err := gcra.Run(ctx, l.client, []string{l.prefix + key},
		l.now().UnixMicro(), limit.Interval().Microseconds(), limit.Rate).Int64Slice()
	if err != nil {
		return ratelimit.Result{}, fmt.Errorf("rate limit %q: redis: %w", key, err)
	}
	if len(reply) != 4 {
		return ratelimit.Result{}, fmt.Errorf("rate limit %q: redis: script returned %d values, want 4", key, len(reply))
	}
	return ratelimit.Result{
		Allowed:    reply[0] == 1,
		Limit:      limit,
		Remaining:  int(reply[1]),
		RetryAfter: time.Duration(reply[2]) * time.Microsecond,
		ResetAfter: time.Duration(reply[3]) * time.Microsecond,
	}, nil
}
