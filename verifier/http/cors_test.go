package http

import (
	"testing"

	"github.com/idgate/idgate/internal/httperr"
)

// TestCreateVerificationCORS: a page on a site the key allows can call
// POST /create-verification from the browser: the preflight is answered,
// and every answer to an admitted Origin names it; nothing else does.
func TestCreateVerificationCORS(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	bearer := h.signIn("owner@example.com", "correct horse battery staple")
	var k integrationKeyResponse
	h.do("POST", "/integration-key", `{"allowed_domains":["shop.example.com"],"rate_limit_per_hour":2}`, "Authorization", bearer).json(t, &k)
	const site = "https://shop.example.com"

	pre := h.do("OPTIONS", "/create-verification", "", "Origin", "https://anyone.example.net",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,x-api-key")
	if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != "https://anyone.example.net" ||
		pre.header.Get("Access-Control-Allow-Methods") != "POST" || pre.header.Get("Access-Control-Allow-Headers") != corsAllowHeaders ||
		pre.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight: %d %v", pre.status, pre.header)
	}

	allowed := func(r response) bool { return r.header.Get("Access-Control-Allow-Origin") == site }
	r := h.do("POST", "/create-verification", `{"external_id":"cart-1"}`, "X-API-Key", k.Key, "Origin", site)
	if r.status != 201 || !allowed(r) || r.header.Get("Access-Control-Expose-Headers") != corsExposeHeaders {
		t.Fatalf("admitted create: %d %v %s", r.status, r.header, r.body)
	}
	// A refusal after the allowlist admitted the Origin is readable too
	// (the 422 used the key's second create of the hour).
	r = h.do("POST", "/create-verification", `{"lifetime_days":0}`, "X-API-Key", k.Key, "Origin", site)
	if expectError(t, r, 422, httperr.ValidationFailed); !allowed(r) {
		t.Fatalf("422 to an admitted Origin: %v", r.header)
	}
	r = h.do("POST", "/create-verification", `{}`, "X-API-Key", k.Key, "Origin", site)
	if expectError(t, r, 429, httperr.RateLimited); !allowed(r) {
		t.Fatalf("the key's 429 to an admitted Origin: %v", r.header)
	}

	// Nothing for an Origin the key refuses, a bad key, or a bearer token.
	for name, r := range map[string]response{
		"other origin": h.do("POST", "/create-verification", `{}`, "X-API-Key", k.Key, "Origin", "https://evil.example.net"),
		"bad key":      h.do("POST", "/create-verification", `{}`, "X-API-Key", "idgk_nope", "Origin", site),
		"bearer":       h.do("POST", "/create-verification", `{}`, "Authorization", bearer, "Origin", site),
	} {
		if r.header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: %d with %v", name, r.status, r.header)
		}
	}
}
