// Package memory is the in-process ratelimit.Limiter: GCRA over a map of
// theoretical arrival times, the embedded default and the fallback while
// Redis is down. Limits are per process.
package memory

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/idgate/idgate/internal/ratelimit"
)

// DefaultMaxKeys bounds the keys a Limiter tracks at once. At roughly 100
// bytes per key (the key text plus map overhead) it is about 10 MB.
const DefaultMaxKeys = 100_000

// evictSample is how many keys are compared when one must go at capacity.
const evictSample = 8

// Limiter is safe for concurrent use. Memory stays bounded two ways: keys
// back at a full burst (TAT in the past) carry no information and are swept
// out, amortised over insertions; and at MaxKeys the sampled key nearest its
// reset is dropped, which at worst hands that key a fresh burst early.
type Limiter struct {
	now     func() time.Time
	maxKeys int

	mu         sync.Mutex
	tats       map[string]int64 // key -> theoretical arrival time, Unix µs
	inserts    int              // since the last sweep
	sweepEvery int              // inserts between sweeps: the live size after the last one
}

// Option configures a Limiter.
type Option func(*Limiter)

// WithMaxKeys sets the bound on tracked keys (default DefaultMaxKeys); n < 1
// is ignored.
func WithMaxKeys(n int) Option {
	return func(l *Limiter) {
		if n >= 1 {
			l.maxKeys = n
		}
	}
}

// New returns an empty Limiter reading the time from now (time.Now if nil).
func New(now func() time.Time, opts ...Option) *Limiter {
	if now == nil {
		now = time.Now
	}
	l := &Limiter{now: now, maxKeys: DefaultMaxKeys, tats: make(map[string]int64)}
	for _, o := range opts {
		o(l)
	}
	l.sweepEvery = l.minSweep()
	return l
}

// Allow implements ratelimit.Limiter. It never fails except for an invalid
// limit.
func (l *Limiter) Allow(_ context.Context, key string, limit ratelimit.Limit) (ratelimit.Result, error) {
	if err := limit.Validate(); err != nil {
		return ratelimit.Result{}, fmt.Errorf("rate limit %q: %w", key, err)
	}
	now := l.now().UnixMicro()

	l.mu.Lock()
	defer l.mu.Unlock()
	tat, known := l.tats[key]
	next, r := ratelimit.GCRA(tat, now, limit)
	if r.Allowed {
		if !known {
			l.makeRoom(now)
		}
		l.tats[key] = next
	}
	return r, nil
}

// Len is the number of keys tracked, for metrics and tests.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tats)
}

// makeRoom runs before a new key is stored. A full sweep costs the map's
// size, and runs only after at least that many insertions since the last
// one, so it is O(1) amortised per insertion.
func (l *Limiter) makeRoom(now int64) {
	l.inserts++
	if l.inserts >= l.sweepEvery {
		for k, tat := range l.tats {
			if tat <= now {
				delete(l.tats, k)
			}
		}
		l.inserts = 0
		l.sweepEvery = max(len(l.tats), l.minSweep())
	}
	if len(l.tats) >= l.maxKeys {
		l.evictNearestReset()
	}
}

// evictNearestReset drops, among a few keys in map order (which Go
// randomises), the one with the earliest TAT: the key losing the least
// state, and an idle one whenever the sample holds one.
func (l *Limiter) evictNearestReset() {
	var victim string
	var earliest int64
	n := 0
	for k, tat := range l.tats {
		if n == 0 || tat < earliest {
			victim, earliest = k, tat
		}
		if n++; n == evictSample {
			break
		}
	}
	delete(l.tats, victim)
}

func (l *Limiter) minSweep() int { return min(1024, l.maxKeys) }
