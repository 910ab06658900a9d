package ratelimit

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalidLimit is returned by every Limiter for a Limit with Rate < 1,
// Period <= 0, or an emission interval (Period/Rate) below one microsecond.
var ErrInvalidLimit = errors.New("invalid rate limit")

// Validate reports whether l can be enforced.
func (l Limit) Validate() error {
	if l.Rate < 1 || l.Period <= 0 || l.Interval() < time.Microsecond {
		return fmt.Errorf("%w: %d per %s", ErrInvalidLimit, l.Rate, l.Period)
	}
	return nil
}

// Interval is the GCRA emission interval, Period/Rate, truncated to a whole
// microsecond. Every backend works in integer microseconds (Redis' Lua numbers
// are doubles, exact only up to 2^53), so the in-process and the Redis
// limiter give bit-identical results for the same clock readings.
func (l Limit) Interval() time.Duration {
	if l.Rate < 1 {
		return 0
	}
	return (l.Period / time.Duration(l.Rate)).Truncate(time.Microsecond)
}

// GCRA applies the generic cell rate algorithm to one event. tat is the
// key's stored theoretical arrival time and now the current time, both in
// Unix microseconds (a missing key is tat 0). It returns the TAT to store
// (unchanged when denied) and the Result. l must be valid.
//
// A key is full (a whole burst of Rate available) when tat <= now, so a
// stored TAT is only worth keeping until then: that is when backends evict
// or expire it. The Redis backend's Lua script mirrors this function line by
// line; the shared conformance suite holds them to the same results.
func GCRA(tat, now int64, l Limit) (int64, Result) {
	interval := l.Interval().Microseconds()
	window := interval * int64(l.Rate) // the span a full burst occupies
	if tat < now {
		tat = now
	}
	next := tat + interval
	if next-now > window {
		return tat, Result{
			Limit:      l,
			RetryAfter: micros(next - window - now),
			ResetAfter: micros(tat - now),
		}
	}
	return next, Result{
		Allowed:    true,
		Limit:      l,
		Remaining:  int((now + window - next) / interval),
		ResetAfter: micros(next - now),
	}
}

func micros(n int64) time.Duration { return time.Duration(n) * time.Microsecond }
