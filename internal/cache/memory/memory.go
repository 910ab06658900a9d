// Package memory is the in-process cache.Cache: least-recently-used
// eviction within a byte budget, expiry by an injected clock.
package memory

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/idgate/idgate/internal/cache"
)

// DefaultMaxBytes is the default budget for keys, values and overhead.
const DefaultMaxBytes = 32 << 20

// entryOverhead approximates the bookkeeping bytes per entry (list element,
// map slot, entry struct), so that many tiny entries are bounded too.
const entryOverhead = 128

// ErrTooLarge is returned by Set for an entry that alone exceeds the budget.
var ErrTooLarge = errors.New("cache: entry larger than the cache")

// Cache is safe for concurrent use. Expired entries are dropped when read
// and, like every other entry, evicted least recently used first when the
// budget is full, so memory never exceeds MaxBytes.
type Cache struct {
	now      func() time.Time
	maxBytes int

	mu      sync.Mutex
	entries map[string]*list.Element // of *entry
	lru     list.List                // front: most recently used
	size    int
}

type entry struct {
	key     string
	value   []byte
	expires time.Time
}

func (e *entry) cost() int { return len(e.key) + len(e.value) + entryOverhead }

// Option configures a Cache.
type Option func(*Cache)

// WithMaxBytes sets the memory budget (default DefaultMaxBytes); n < 1 is
// ignored.
func WithMaxBytes(n int) Option {
	return func(c *Cache) {
		if n >= 1 {
			c.maxBytes = n
		}
	}
}

// New returns an empty Cache reading the time from now (time.Now if nil).
func New(now func() time.Time, opts ...Option) *Cache {
	if now == nil {
		now = time.Now
	}
	c := &Cache{now: now, maxBytes: DefaultMaxBytes, entries: make(map[string]*list.Element)}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Get implements cache.Cache.
func (c *Cache) Get(_ context.Context, key string) ([]byte, error) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, cache.ErrNotFound
	}
	e := el.Value.(*entry)
	if !now.Before(e.expires) {
		c.remove(el)
		return nil, cache.ErrNotFound
	}
	c.lru.MoveToFront(el)
	return append([]byte(nil), e.value...), nil
}

// Set implements cache.Cache.
func (c *Cache) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	if err := cache.CheckTTL(key, ttl); err != nil {
		return err
	}
	e := &entry{key: key, value: append([]byte(nil), value...), expires: c.now().Add(ttl)}
	if e.cost() > c.maxBytes {
		return fmt.Errorf("cache set %q: %w (%d bytes, budget %d)", key, ErrTooLarge, e.cost(), c.maxBytes)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[key]; ok {
		c.remove(old)
	}
	c.entries[key] = c.lru.PushFront(e)
	c.size += e.cost()
	for c.size > c.maxBytes {
		c.remove(c.lru.Back())
	}
	return nil
}

// Delete implements cache.Cache.
func (c *Cache) Delete(_ context.Context, key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	return nil
}

// Bytes is the budget in use, for metrics and tests.
func (c *Cache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

func (c *Cache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*entry)
	delete(c.entries, e.key)
	c.size -= e.cost()
}
