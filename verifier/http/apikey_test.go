package http

import (
	"fmt"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
)

// keyHarness mounts RequireBearerOrIntegrationKey on a stand-in for the
// create-verification route (which a later issue adds) and returns the
// account's bearer token and a key allowing *.example.com at 2 per hour.
func keyHarness(t *testing.T) (*harness, string, string) {
	h := newHarness(t)
	h.srv.app.Post("/test/create", h.srv.RequireBearerOrIntegrationKey(), func(c *fiber.Ctx) error {
		a, _ := Account(c)
		k, viaKey := IntegrationKey(c)
		return c.JSON(fiber.Map{"account": a.ID, "via_key": viaKey, "key_id": k.ID})
	})
	h.account("owner@example.com", "correct horse battery staple")
	bearer := h.signIn("owner@example.com", "correct horse battery staple")
	r := h.do("POST", "/integration-key", `{"allowed_domains":["*.example.com","localhost:5173"],"rate_limit_per_hour":2}`, "Authorization", bearer)
	var k integrationKeyResponse
	r.json(t, &k)
	return h, bearer, k.Key
}

func TestIntegrationKeyOriginAllowlist(t *testing.T) {
	h, _, key := keyHarness(t)
	allowed := []string{"https://shop.example.com", "https://example.com"}
	refused := []string{"https://evil-example.com", "https://example.com.evil.net", "http://shop.example.com", "https://shop.example.com:8443", "null", "", "http://localhost:5173"}
	for _, o := range refused {
		expectError(t, h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", o), 403, httperr.OriginNotAllowed)
	}
	for _, o := range allowed {
		r := h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", o)
		var out struct {
			ViaKey bool `json:"via_key"`
		}
		r.json(t, &out)
		if r.status != 200 || !out.ViaKey {
			t.Fatalf("%s: %d %s", o, r.status, r.body)
		}
	}
}

func TestIntegrationKeyOwnRateLimit(t *testing.T) {
	h, bearer, key := keyHarness(t)
	for i := 0; i < 2; i++ {
		if r := h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", "https://shop.example.com"); r.status != 200 {
			t.Fatalf("request %d: %d %s", i, r.status, r.body)
		}
	}
	r := h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", "https://shop.example.com")
	expectError(t, r, 429, httperr.RateLimited)
	if r.header.Get("Retry-After") != "1800" || r.header.Get("RateLimit-Limit") != "2" {
		t.Fatalf("%v", r.header)
	}
	// The bearer path is not charged to the key.
	if r := h.do("POST", "/test/create", "", "Authorization", bearer); r.status != 200 {
		t.Fatalf("bearer: %d", r.status)
	}
	h.clock.Advance(30 * time.Minute)
	if r := h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", "https://shop.example.com"); r.status != 200 {
		t.Fatalf("after 30 min: %d %s", r.status, r.body)
	}
}

func TestIntegrationKeyRefusals(t *testing.T) {
	h, bearer, key := keyHarness(t)
	origin := "https://shop.example.com"
	for name, value := range map[string]string{
		"malformed":   "idgk_short",
		"other shape": "sk_live_0123456789",
		"unknown":     "idgk_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	} {
		r := h.do("POST", "/test/create", "", "X-API-Key", value, "Origin", origin)
		if r.status != 401 || r.errorBody(t).Code != httperr.Unauthenticated {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
	expectError(t, h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", origin, "Authorization", bearer), 401, httperr.Unauthenticated)
	// A revoked key stops at once.
	h.do("DELETE", "/integration-key", "", "Authorization", bearer)
	expectError(t, h.do("POST", "/test/create", "", "X-API-Key", key, "Origin", origin), 401, httperr.Unauthenticated)
}

func TestDevModeAcceptsHTTPLocalhost(t *testing.T) {
	h, bearer, _ := keyHarness(t)
	dev := newHarness(t, func(d *Deps) { d.Store, d.Config.Dev = h.store, true })
	dev.srv.app.Post("/test/create", dev.srv.RequireBearerOrIntegrationKey(), func(c *fiber.Ctx) error { return c.SendStatus(204) })
	r := h.do("POST", "/integration-key", `{"allowed_domains":["localhost:5173"]}`, "Authorization", bearer)
	var k integrationKeyResponse
	r.json(t, &k)
	if r := dev.do("POST", "/test/create", "", "X-API-Key", k.Key, "Origin", "http://localhost:5173"); r.status != 204 {
		t.Fatalf("dev: %d %s", r.status, r.body)
	}
	expectError(t, h.do("POST", "/test/create", "", "X-API-Key", k.Key, "Origin", "http://localhost:5173"), 403, httperr.OriginNotAllowed)
}

// A create with an integration key counts under the key's limit and the
// account's; the RateLimit headers are the limit the client will hit
// first, so it can slow down before a 429.
func TestIntegrationKeyCreateShowsTheTighterLimit(t *testing.T) {
	h := newHarness(t, func(d *Deps) { d.Config.CreateLimit = DefaultCreateLimit })
	_, bearer := h.owner()
	for _, c := range []struct {
		keyRate                int
		wantLimit, wantRemains string
	}{
		{3, "3", "2"},       // the key's 3 an hour, tighter than the account's 100
		{1000, "100", "98"}, // the account's 100, one create spent above
	} {
		r := h.do("POST", "/integration-key", fmt.Sprintf(`{"allowed_domains":["shop.example.com"],"rate_limit_per_hour":%d}`, c.keyRate), "Authorization", bearer)
		var k integrationKeyResponse
		r.json(t, &k)
		r = h.do("POST", "/create-verification", `{"encryption_key_mode":"none"}`, "X-API-Key", k.Key, "Origin", "https://shop.example.com")
		if r.status != 201 || r.header.Get("RateLimit-Limit") != c.wantLimit || r.header.Get("RateLimit-Remaining") != c.wantRemains {
			t.Fatalf("key at %d/h: %d, RateLimit-Limit %q, -Remaining %q; want %s, %s", c.keyRate, r.status,
				r.header.Get("RateLimit-Limit"), r.header.Get("RateLimit-Remaining"), c.wantLimit, c.wantRemains)
		}
	}
}
