package verifier

import (
	"crypto/sha256"
	"testing"
	"time"
)

func TestSessionCacheBound(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	c := sessionCache{max: 3, m: map[[sha256.Size]byte]cachedSession{}}
	key := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	entry := func(id string, from time.Time) cachedSession {
		return cachedSession{acct: Account{ID: id}, from: from, until: from.Add(time.Minute)}
	}
	for _, s := range []string{"old-0", "old-1", "old-2"} {
		c.put(key(s), entry(s, t0))
	}
	// Full of live entries: one arbitrary entry makes room.
	c.put(key("new-0"), entry("new-0", t0.Add(time.Second)))
	if len(c.m) != 3 {
		t.Fatalf("%d entries, want at most 3", len(c.m))
	}
	if a, ok := c.get(key("new-0"), t0.Add(time.Second)); !ok || a.acct.ID != "new-0" {
		t.Fatalf("the entry just put: %+v %v", a, ok)
	}
	// Refreshing an entry already present evicts nothing.
	c.put(key("new-0"), entry("new-0", t0.Add(2*time.Second)))
	if len(c.m) != 3 {
		t.Fatalf("refresh changed the size to %d", len(c.m))
	}
	// Once the old entries are dead, a new one sweeps all of them out.
	later := t0.Add(time.Minute)
	c.put(key("new-1"), entry("new-1", later))
	if len(c.m) != 2 {
		t.Fatalf("after expiry: %d entries, want new-0 and new-1", len(c.m))
	}
	for _, s := range []string{"new-0", "new-1"} {
		if _, ok := c.get(key(s), later); !ok {
			t.Fatalf("%s evicted though live", s)
		}
	}
}
