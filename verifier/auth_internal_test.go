package verifier

import (
	"fmt"
	"testing"
	"time"
)

func TestAccountCacheBound(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	c := accountCache{ttl: time.Minute, max: 3, m: map[string]cachedAccount{}}
	for i := 0; i < 3; i++ {
		c.put(Account{ID: fmt.Sprint("old-", i)}, t0)
	}
	// Full of live entries: one arbitrary entry makes room.
	c.put(Account{ID: "new-0"}, t0.Add(time.Second))
	if len(c.m) != 3 {
		t.Fatalf("%d entries, want at most 3", len(c.m))
	}
	if _, ok := c.get("new-0", t0.Add(time.Second)); !ok {
		t.Fatal("the entry just put is missing")
	}
	// Refreshing an entry already present evicts nothing.
	c.put(Account{ID: "new-0"}, t0.Add(2*time.Second))
	if len(c.m) != 3 {
		t.Fatalf("refresh changed the size to %d", len(c.m))
	}
	// Once the old entries expire, a new one sweeps all of them out.
	later := t0.Add(time.Minute)
	c.put(Account{ID: "new-1"}, later)
	if len(c.m) != 2 {
		t.Fatalf("after expiry: %d entries (%v), want new-0 and new-1", len(c.m), c.m)
	}
	for _, id := range []string{"new-0", "new-1"} {
		if _, ok := c.get(id, later); !ok {
			t.Fatalf("%s evicted though live", id)
		}
	}
}
