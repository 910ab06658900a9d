package ratelimit

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// DefaultProbeInterval is how long Fallback leaves a failed primary alone
// before trying it again.
const DefaultProbeInterval = time.Second

// FallbackOption configures Fallback.
type FallbackOption func(*fallback)

// WithClock sets the clock Fallback times its probes with (default time.Now).
func WithClock(now func() time.Time) FallbackOption {
	return func(f *fallback) { f.now = now }
}

// WithProbeInterval sets how long a failed primary is bypassed (default
// DefaultProbeInterval); d <= 0 is ignored.
func WithProbeInterval(d time.Duration) FallbackOption {
	return func(f *fallback) {
		if d > 0 {
			f.probe = d
		}
	}
}

// Fallback is the policy for a shared limiter that stops answering (Redis
// down): limits become per-instance instead of vanishing (fail open) or
// locking everyone out (fail closed).
//
// Calls go to primary. When it fails, onError gets the error (the server
// logs and counts it), the call is answered by secondary (the in-process
// limiter), and primary is bypassed for the probe interval so a dead Redis
// costs one slow call per interval rather than one per request. After the
// interval one call probes primary again; once it answers, primary serves
// everything again. Counts do not carry over in either direction: each side
// keeps its own, so an outage grants at most one extra burst per key and
// instance.
//
// Errors that are not the primary's fault are returned as they are, without
// falling back: an invalid limit, and a call whose context ended. onError
// may be nil, and is called from concurrent requests.
func Fallback(primary, secondary Limiter, onError func(error), opts ...FallbackOption) Limiter {
	f := &fallback{primary: primary, secondary: secondary, onError: onError, now: time.Now, probe: DefaultProbeInterval}
	for _, o := range opts {
		o(f)
	}
	if f.onError == nil {
		f.onError = func(error) {}
	}
	return f
}

type fallback struct {
	primary, secondary Limiter
	onError            func(error)
	now                func() time.Time
	probe              time.Duration
	// bypassUntil is when primary may next be tried, Unix ns; 0 while it is
	// healthy.
	bypassUntil atomic.Int64
}

func (f *fallback) Allow(ctx context.Context, key string, limit Limit) (Result, error) {
	now := f.now().UnixNano()
	if until := f.bypassUntil.Load(); until != 0 {
		// Only the caller that wins the swap probes; the rest keep to the
		// secondary until the probe has answered.
		if now < until || !f.bypassUntil.CompareAndSwap(until, now+int64(f.probe)) {
			return f.secondary.Allow(ctx, key, limit)
		}
	}
	r, err := f.primary.Allow(ctx, key, limit)
	if err == nil {
		f.bypassUntil.Store(0)
		return r, nil
	}
	if errors.Is(err, ErrInvalidLimit) || ctx.Err() != nil {
		return r, err
	}
	f.bypassUntil.Store(now + int64(f.probe))
	f.onError(err)
	return f.secondary.Allow(ctx, key, limit)
}
