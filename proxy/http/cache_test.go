package http_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/cache"
	"github.com/idgate/idgate/internal/cache/memory"
	rediscache "github.com/idgate/idgate/internal/cache/redis"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/proxytest"
)

// Status is served from the cache (the platform is read once per cart) and
// the webhook replaces the cached entry at once, on the in-process cache
// and on the shared Redis one alike.
func TestStatusCachedAndRefreshedByWebhook(t *testing.T) {
	for name, newCache := range map[string]func(t *testing.T) cache.Cache{
		"memory": func(*testing.T) cache.Cache { return memory.New(nil) },
		"redis": func(t *testing.T) cache.Cache {
			client, prefix := testkit.Redis(t)
			return rediscache.New(client, prefix, nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := proxytest.Start(t, proxytest.Options{Cache: newCache(t)})
			reads := func() int {
				n := 0
				for _, r := range env.Doubles[storeHash].Requests() {
					if r.Method == http.MethodGet && strings.Contains(r.Path, "/carts/"+cartA+"/metafields") {
						n++
					}
				}
				return n
			}
			for range 5 {
				if s := status(t, env, storeHash, cartA, ""); s.Verified {
					t.Fatalf("fresh cart verified: %+v", s)
				}
			}
			if n := reads(); n != 1 {
				t.Fatalf("5 status calls read the platform %d times, want 1", n)
			}
			deliverOK(t, env, storeHash, proxytest.Result(proxytest.NewRequestID(), env.Ref(storeHash, proxy.Shopper{CartID: cartA}), nil))
			before := reads()
			if s := status(t, env, storeHash, cartA, ""); !s.Verified {
				t.Fatalf("status after webhook still cached as unverified: %+v", s)
			}
			if reads() != before {
				t.Fatal("status after webhook went to the platform: the webhook did not refresh the cache")
			}
		})
	}
}
