package testkit

import (
	"sync"
	"time"
)

// Clock is a manual clock for code that takes `Now func() time.Time`: tests
// move it with Advance instead of waiting for real time to pass. Safe for
// concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock starts a Clock at an arbitrary fixed instant with sub-second
// digits, so millisecond and microsecond arithmetic is exercised from the
// first reading.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 3, 14, 15, 9, 26, 535_897_000, time.UTC)}
}

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
