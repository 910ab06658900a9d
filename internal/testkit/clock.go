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
	return ClockAt(time.Date(2026, 3, 14, 15, 9, 26, 535_897_000, time.UTC))
}

// ClockAt starts a Clock at start.
func ClockAt(start time.Time) *Clock { return &Clock{now: start} }

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

// Set moves the clock to at (backwards too).
func (c *Clock) Set(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = at
}

// ShiftedClock is real time plus an offset the test moves: for servers
// whose checks need time to pass for real (the liveness judge compares
// frame times with its own elapsed time) while a test still has to jump
// days ahead (a link's expiry) or past a retry schedule. The zero value
// reads real time. Safe for concurrent use.
type ShiftedClock struct {
	mu     sync.Mutex
	offset time.Duration
}

// Now reads real time plus the offset.
func (c *ShiftedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Advance adds d to the offset.
func (c *ShiftedClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
}
