package ratelimittest

import (
	"sync"
	"time"
)

// clock is the manual clock the suite drives every limiter with, so no test
// waits for real time to pass.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock {
	// An arbitrary instant with sub-second digits, so millisecond and
	// microsecond arithmetic is exercised from the first call.
	return &clock{now: time.Date(2026, 3, 14, 15, 9, 26, 535_897_000, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
