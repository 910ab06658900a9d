package verifier

import (
	"crypto/sha256"
	"sync"
	"time"
)

// AccountCacheTTL is how long Authenticate trusts that an account it found
// still exists (and its e-mail is unchanged): an account removed from the
// store stops authenticating within this time on every instance.
const AccountCacheTTL = 30 * time.Second

// sessionCacheSize bounds the cache's memory (about 250 bytes an entry);
// beyond it, expired entries are dropped and then arbitrary ones.
const sessionCacheSize = 10000

// cachedSession is a verified token's account and mode, trusted on
// [from, until).
// from guards against a clock set back: nbf and iat were only checked
// against times from on.
type cachedSession struct {
	acct        Account
	mode        Mode
	from, until time.Time
}

func (e cachedSession) live(now time.Time) bool {
	return !now.Before(e.from) && now.Before(e.until)
}

// sessionCache is a bounded map of verified tokens (by SHA-256, so a lookup
// compares digests, never secret bytes) on the Authenticator's clock.
type sessionCache struct {
	max int
	mu  sync.Mutex
	m   map[[sha256.Size]byte]cachedSession
}

func (c *sessionCache) get(key [sha256.Size]byte, now time.Time) (cachedSession, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok {
		return cachedSession{}, false
	}
	if !e.live(now) {
		delete(c.m, key)
		return cachedSession{}, false
	}
	return e, true
}

func (c *sessionCache) put(key [sha256.Size]byte, e cachedSession) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok && len(c.m) >= c.max {
		c.evict(e.from)
	}
	c.m[key] = e
}

// evict makes room for one entry: every dead entry goes, and if none was
// dead, one arbitrary entry (map order), which only costs that token one
// more full check.
func (c *sessionCache) evict(now time.Time) {
	for k, e := range c.m {
		if !e.live(now) {
			delete(c.m, k)
		}
	}
	if len(c.m) < c.max {
		return
	}
	for k := range c.m {
		delete(c.m, k)
		return
	}
}
