// Package ratelimit defines the Limiter every rate limit in idgate goes
// through. Backends: memory (in-process, the embedded default) and redis
// (shared across instances). Both pass ratelimittest.Run and compute the
// same GCRA step (GCRA). Fallback puts the in-process limiter behind Redis
// for when Redis is down; Headers turns a Result into response headers.
package ratelimit

import (
	"context"
	"time"
)

// Limit allows Rate events per Period, with bursts up to Rate
// (e.g. Limit{Rate: 5, Period: time.Minute}).
type Limit struct {
	Rate   int
	Period time.Duration
}

// Result is the outcome of one Allow call, with what the rate-limit
// response headers need.
type Result struct {
	Allowed bool
	Limit   Limit
	// Remaining is how many more events would be allowed right now.
	Remaining int
	// RetryAfter is how long until the next event is allowed (0 when Allowed).
	RetryAfter time.Duration
	// ResetAfter is how long until the limiter is back to a full burst.
	ResetAfter time.Duration
}

// Limiter counts one event under key against limit. Keys are namespaced by
// the caller ("auth:ip:203.0.113.7", "create:acct:<id>").
type Limiter interface {
	Allow(ctx context.Context, key string, limit Limit) (Result, error)
}
