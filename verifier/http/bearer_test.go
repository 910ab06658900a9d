package http

import (
	"bytes"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
)

func sign(t *testing.T, method jwt.SigningMethod, key any, kid string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + s
}

// TestEveryBearerFailureIsTheSame401: whatever is wrong with the token, the
// answer is 401 with one body, so clients (and attackers) learn only
// "sign in again".
func TestEveryBearerFailureIsTheSame401(t *testing.T) {
	h := newHarness(t)
	a := h.account("owner@example.com", "correct horse battery staple")
	good := h.signIn("owner@example.com", "correct horse battery staple")
	if r := h.do("GET", "/me", "", "Authorization", good); r.status != 200 {
		t.Fatalf("control: %d %s", r.status, r.body)
	}
	claims := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"iss": "idgate", "aud": "idgate-api", "sub": a.ID, "iat": t0.Unix(), "exp": t0.Add(time.Hour).Unix()}
		if edit != nil {
			edit(c)
		}
		return c
	}
	ghost, err := h.auth.Issue("6a1f0c3e-0000-4000-8000-000000000000")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"missing":          "",
		"not bearer":       "Basic b3duZXI6cHc=",
		"bearer no token":  "Bearer",
		"bearer blank":     "Bearer  ",
		"garbage":          "Bearer not.a.jwt",
		"wrong signature":  sign(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx"), testKey.ID, claims(nil)),
		"alg none":         sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, testKey.ID, claims(nil)),
		"HS512":            sign(t, jwt.SigningMethodHS512, testKey.Secret, testKey.ID, claims(nil)),
		"unknown kid":      sign(t, jwt.SigningMethodHS256, testKey.Secret, "other", claims(nil)),
		"wrong issuer":     sign(t, jwt.SigningMethodHS256, testKey.Secret, testKey.ID, claims(func(c jwt.MapClaims) { c["iss"] = "evil" })),
		"wrong audience":   sign(t, jwt.SigningMethodHS256, testKey.Secret, testKey.ID, claims(func(c jwt.MapClaims) { c["aud"] = "proxy" })),
		"not yet valid":    sign(t, jwt.SigningMethodHS256, testKey.Secret, testKey.ID, claims(func(c jwt.MapClaims) { c["nbf"] = t0.Add(time.Hour).Unix() })),
		"account is gone":  "Bearer " + ghost.Token,
		"lower-case token": "bearer " + good[len("Bearer "):] + "x",
	}
	var first []byte
	for name, authz := range cases {
		r := h.do("GET", "/me", "", "Authorization", authz)
		expectError(t, r, 401, httperr.Unauthenticated)
		if r.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate", name)
		}
		if first == nil {
			first = r.body
		} else if !bytes.Equal(first, r.body) {
			t.Errorf("%s: body differs: %s vs %s", name, r.body, first)
		}
	}
	// The real token stops working once it expires on the injected clock.
	h.clock.Advance(time.Hour + time.Minute)
	r := h.do("GET", "/me", "", "Authorization", good)
	expectError(t, r, 401, httperr.Unauthenticated)
	if !bytes.Equal(first, r.body) {
		t.Errorf("expired: body differs")
	}
}

// TestIntegrationKeyRefusedOnAccountEndpoints: an X-API-Key gets 403
// everywhere but create-verification, even next to a valid bearer token.
func TestIntegrationKeyRefusedOnAccountEndpoints(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	bearer := h.signIn("owner@example.com", "correct horse battery staple")
	r := h.do("POST", "/integration-key", `{"allowed_domains":["shop.example.com"]}`, "Authorization", bearer)
	var k struct {
		Key string `json:"key"`
	}
	r.json(t, &k)
	for _, ep := range []struct{ method, path, body string }{
		{"GET", "/me", ""},
		{"GET", "/integration-key", ""},
		{"POST", "/integration-key", ""},
		{"PATCH", "/integration-key", `{"rate_limit_per_hour":5}`},
		{"DELETE", "/integration-key", ""},
	} {
		for _, withBearer := range []string{"", bearer} {
			r := h.do(ep.method, ep.path, ep.body, "X-API-Key", k.Key, "Origin", "https://shop.example.com", "Authorization", withBearer)
			expectError(t, r, 403, httperr.Forbidden)
		}
	}
	// The key survived all of that untouched.
	got, err := h.store.GetIntegrationKeyByHash(t.Context(), verifier.HashIntegrationKey(k.Key))
	if err != nil || got.RateLimitPerHour != verifier.DefaultKeyRateLimit {
		t.Fatalf("%+v %v", got, err)
	}
}

// Every authenticated answer is the account's own data: no cache may keep
// it (an API sweep found /me, /quota and others without no-store).
func TestAuthenticatedAnswersAreNotCached(t *testing.T) {
	h := newHarness(t)
	_, bearer := h.owner()
	v := h.create(bearer, `{"encryption_key_mode":"none"}`)
	for _, path := range []string{"/me", "/quota", "/templates", "/passphrase-keys", "/verifications",
		"/verification?id=" + v.ID} {
		r := h.do("GET", path, "", "Authorization", bearer)
		if r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("GET %s: %d, Cache-Control %q", path, r.status, r.header.Get("Cache-Control"))
		}
	}
}
