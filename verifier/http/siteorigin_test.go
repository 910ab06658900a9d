package http

import (
	"testing"
)

// TestSessionSiteOrigin: a verification created with an integration key
// names, in its session answer, the Origin the key's allowlist admitted
// (in location.origin's form: lower case, no default port), the one site
// the page may offer to go back to; one created with a bearer token names
// none, whatever Origin the request carried, and the body cannot set it.
func TestSessionSiteOrigin(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	r := h.do("POST", "/integration-key", `{"allowed_domains":["*.example.com","shop.example.com:8443"]}`, "Authorization", h.bearer)
	var key integrationKeyResponse
	r.json(t, &key)
	for _, c := range []struct{ header, value, origin, body, want string }{
		{"X-API-Key", key.Key, "https://Shop.Example.com", `{}`, "https://shop.example.com"},
		{"X-API-Key", key.Key, "https://shop.example.com:443", `{}`, "https://shop.example.com"},
		{"X-API-Key", key.Key, "https://shop.example.com:8443", `{}`, "https://shop.example.com:8443"},
		{"Authorization", h.bearer, "https://shop.example.com", `{}`, ""},
	} {
		r := h.do("POST", "/verification", c.body, c.header, c.value, "Origin", c.origin)
		if r.status != 201 {
			t.Fatalf("create via %s from %s: %d %s", c.header, c.origin, r.status, r.body)
		}
		var v verificationResponse
		r.json(t, &v)
		if got := h.session(token(t, v)).SiteOrigin; got != c.want {
			t.Errorf("created via %s from %s: site_origin %q, want %q", c.header, c.origin, got, c.want)
		}
	}
	// An account without a display name: its pages name the site whose
	// key created the link (an allowlisted domain), never a bearer
	// token's link; once named, the account's name wins.
	viaKey := h.do("POST", "/verification", `{}`, "X-API-Key", key.Key, "Origin", "https://shop.example.com")
	var kv, bv verificationResponse
	viaKey.json(t, &kv)
	h.do("POST", "/verification", `{}`, "Authorization", h.bearer, "Origin", "https://shop.example.com").json(t, &bv)
	expectLinkPage(t, h.harness, token(t, kv), 200, "shop.example.com asks you to verify your identity")
	expectLinkPage(t, h.harness, token(t, bv), 200, "Verify your identity")
	if r := h.do("PATCH", "/me", `{"branding":{"display_name":"Example Shop"}}`, "Authorization", h.bearer); r.status != 200 {
		t.Fatalf("PATCH /me: %d %s", r.status, r.body)
	}
	expectLinkPage(t, h.harness, token(t, kv), 200, "Example Shop asks you to verify your identity")

	// Not a member of the create request: a body naming it is refused.
	r = h.do("POST", "/verification", `{"site_origin":"https://evil.example.net"}`, "Authorization", h.bearer)
	if r.status != 422 {
		t.Errorf("a body with site_origin: %d %s", r.status, r.body)
	}
}
