package ratelimit

import (
	"strconv"
	"time"
)

// Headers gives the response headers for r, for every rate-limited response
// (allowed or not):
//
//   - RateLimit-Limit / X-RateLimit-Limit: the burst size, Limit.Rate.
//   - RateLimit-Remaining / X-RateLimit-Remaining: events still allowed now.
//   - RateLimit-Reset / X-RateLimit-Reset: seconds (rounded up) until the
//     full burst is available again. A delta, not a Unix timestamp, in both
//     spellings, so clients need no synchronised clock.
//   - Retry-After: only when denied; whole seconds, rounded up and at least
//     1, until the next event is allowed. Rounding up means a client that
//     waits exactly this long is never denied again for the same reason.
//
// The unprefixed names follow the IETF httpapi RateLimit header draft; the
// X- names are what most existing clients read.
func Headers(r Result) map[string]string {
	limit := strconv.Itoa(r.Limit.Rate)
	remaining := strconv.Itoa(r.Remaining)
	reset := strconv.FormatInt(ceilSeconds(r.ResetAfter), 10)
	h := map[string]string{
		"RateLimit-Limit":       limit,
		"RateLimit-Remaining":   remaining,
		"RateLimit-Reset":       reset,
		"X-RateLimit-Limit":     limit,
		"X-RateLimit-Remaining": remaining,
		"X-RateLimit-Reset":     reset,
	}
	if !r.Allowed {
		h["Retry-After"] = strconv.FormatInt(max(1, ceilSeconds(r.RetryAfter)), 10)
	}
	return h
}

func ceilSeconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second - 1) / time.Second)
}
