package http

import (
	"crypto/sha256"
	"regexp"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
)

var keyShape = regexp.MustCompile(`^idgk_[A-Za-z0-9_-]{43}$`)

func TestIntegrationKeyLifecycle(t *testing.T) {
	h := newHarness(t)
	a := h.account("owner@example.com", "correct horse battery staple")
	bearer := h.signIn("owner@example.com", "correct horse battery staple")

	expectError(t, h.do("GET", "/integration-key", "", "Authorization", bearer), 404, httperr.NotFound)

	r := h.do("POST", "/integration-key", `{"allowed_domains":["Shop.Example.com","*.example.org"],"rate_limit_per_hour":50}`, "Authorization", bearer)
	var created integrationKeyResponse
	r.json(t, &created)
	if r.status != 201 || !keyShape.MatchString(created.Key) || created.Prefix != created.Key[:12] || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if len(created.AllowedDomains) != 2 || created.AllowedDomains[0] != "shop.example.com" || created.RateLimitPerHour != 50 {
		t.Fatalf("%+v", created)
	}
	// Only the hash is stored.
	stored, err := h.store.GetIntegrationKey(t.Context(), a.ID, verifier.ModeLive)
	sum := sha256.Sum256([]byte(created.Key))
	if err != nil || string(stored.Hash) != string(sum[:]) || stored.Prefix != created.Prefix {
		t.Fatalf("stored %+v %v", stored, err)
	}

	r = h.do("GET", "/integration-key", "", "Authorization", bearer)
	var meta map[string]any
	r.json(t, &meta)
	if r.status != 200 || meta["key"] != nil || meta["prefix"] != created.Prefix {
		t.Fatalf("metadata %d %s", r.status, r.body)
	}

	r = h.do("PATCH", "/integration-key", `{"allowed_domains":["*.example.com"]}`, "Authorization", bearer)
	var patched integrationKeyResponse
	r.json(t, &patched)
	if r.status != 200 || len(patched.AllowedDomains) != 1 || patched.AllowedDomains[0] != "*.example.com" || patched.RateLimitPerHour != 50 {
		t.Fatalf("patch %d %s", r.status, r.body)
	}
	e := expectError(t, h.do("PATCH", "/integration-key", `{"allowed_domains":["ok.example.com","https://shop.example.com"],"rate_limit_per_hour":0}`, "Authorization", bearer), 422, httperr.ValidationFailed)
	if len(e.Details) != 2 || e.Details[0].Field != "allowed_domains[1]" || e.Details[0].Code != "invalid_domain" || e.Details[1].Field != "rate_limit_per_hour" {
		t.Fatalf("%+v", e.Details)
	}
	expectError(t, h.do("PATCH", "/integration-key", `{}`, "Authorization", bearer), 422, httperr.ValidationFailed)

	// Generating again revokes the old value at once; unset settings carry over.
	r = h.do("POST", "/integration-key", "", "Authorization", bearer)
	var second integrationKeyResponse
	r.json(t, &second)
	if r.status != 201 || second.Key == created.Key || second.ID == created.ID || second.RateLimitPerHour != 50 || second.AllowedDomains[0] != "*.example.com" {
		t.Fatalf("regenerate %d %s", r.status, r.body)
	}
	if _, err := h.store.GetIntegrationKeyByHash(t.Context(), verifier.HashIntegrationKey(created.Key)); err == nil {
		t.Fatal("old key still resolves")
	}

	if r := h.do("DELETE", "/integration-key", "", "Authorization", bearer); r.status != 204 {
		t.Fatalf("delete %d %s", r.status, r.body)
	}
	expectError(t, h.do("GET", "/integration-key", "", "Authorization", bearer), 404, httperr.NotFound)
	expectError(t, h.do("DELETE", "/integration-key", "", "Authorization", bearer), 404, httperr.NotFound)
	expectError(t, h.do("PATCH", "/integration-key", `{"rate_limit_per_hour":3}`, "Authorization", bearer), 404, httperr.NotFound)
}

// TestIntegrationKeysAreTenantIsolated: one account's token never reaches
// another's key.
func TestIntegrationKeysAreTenantIsolated(t *testing.T) {
	h := newHarness(t)
	h.account("a@example.com", "password for a")
	h.account("b@example.com", "password for b")
	ta, tb := h.signIn("a@example.com", "password for a"), h.signIn("b@example.com", "password for b")
	if r := h.do("POST", "/integration-key", `{"allowed_domains":["a.example.com"]}`, "Authorization", ta); r.status != 201 {
		t.Fatal(r.status)
	}
	expectError(t, h.do("GET", "/integration-key", "", "Authorization", tb), 404, httperr.NotFound)
	expectError(t, h.do("DELETE", "/integration-key", "", "Authorization", tb), 404, httperr.NotFound)
	if r := h.do("GET", "/integration-key", "", "Authorization", ta); r.status != 200 {
		t.Fatalf("a lost its key: %d", r.status)
	}
}
