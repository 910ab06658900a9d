package verifier_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/verifier"
)

var authEpoch = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

func hmacKey(id string, fill byte) verifier.SigningKey {
	return verifier.SigningKey{ID: id, Secret: []byte(strings.Repeat(string(rune(fill)), 32))}
}

func authTokenConfig(keys ...verifier.SigningKey) verifier.TokenConfig {
	return verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour, Keys: keys}
}

// authClock is an injectable clock tests move by hand.
type authClock struct{ now time.Time }

func (c *authClock) Now() time.Time { return c.now }

func newTestAuth(t *testing.T, c *authClock, keys ...verifier.SigningKey) *verifier.Authenticator {
	t.Helper()
	a, err := verifier.NewAuthenticator(nil, authTokenConfig(keys...), c.Now)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// forge signs arbitrary claims and headers, for the attacks below.
func forgeToken(t *testing.T, method jwt.SigningMethod, signKey any, header map[string]any, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	for k, v := range header {
		tok.Header[k] = v
	}
	s, err := tok.SignedString(signKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validTokenClaims() jwt.MapClaims {
	return jwt.MapClaims{"iss": "idgate", "aud": "idgate-api", "sub": "acct-1", "iat": authEpoch.Unix(), "exp": authEpoch.Add(time.Hour).Unix()}
}

func withClaim(c jwt.MapClaims, k string, v any) jwt.MapClaims {
	out := jwt.MapClaims{}
	for kk, vv := range c {
		out[kk] = vv
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

func TestTokenRoundTrip(t *testing.T) {
	c := &authClock{authEpoch}
	a := newTestAuth(t, c, hmacKey("k1", 'a'))
	tok, err := a.Issue("acct-1")
	if err != nil {
		t.Fatal(err)
	}
	if tok.ExpiresIn != time.Hour {
		t.Fatalf("expires in %v", tok.ExpiresIn)
	}
	sub, err := a.Verify(tok.Token)
	if err != nil || sub != "acct-1" {
		t.Fatalf("verify: %q %v", sub, err)
	}
	// The header names the key and the algorithm is HS256.
	parsed, _, err := jwt.NewParser().ParseUnverified(tok.Token, jwt.MapClaims{})
	if err != nil || parsed.Header["kid"] != "k1" || parsed.Header["alg"] != "HS256" {
		t.Fatalf("header %v %v", parsed.Header, err)
	}
	claims := parsed.Claims.(jwt.MapClaims)
	if claims["iss"] != "idgate" || claims["sub"] != "acct-1" || claims["exp"].(float64) != float64(authEpoch.Add(time.Hour).Unix()) {
		t.Fatalf("claims %v", claims)
	}
}

func TestTokenRefusals(t *testing.T) {
	c := &authClock{authEpoch.Add(time.Minute)}
	k1 := hmacKey("k1", 'a')
	a := newTestAuth(t, c, k1)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	good := forgeToken(t, jwt.SigningMethodHS256, k1.Secret, map[string]any{"kid": "k1"}, validTokenClaims())
	if _, err := a.Verify(good); err != nil {
		t.Fatalf("control token refused: %v", err)
	}
	parts := strings.Split(good, ".")
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT","kid":"k1"}`)) + "." + parts[1] + "."
	noneLib := forgeToken(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, map[string]any{"kid": "k1"}, validTokenClaims())
	hs := map[string]any{"kid": "k1"}
	cases := map[string]string{
		"empty":                "",
		"garbage":              "not-a-token",
		"three dots":           "a.b.c",
		"too long":             good + strings.Repeat("A", 5000),
		"tampered payload":     parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"iss":"idgate","aud":"idgate-api","sub":"acct-2","iat":1,"exp":9999999999}`)) + "." + parts[2],
		"wrong signature":      forgeToken(t, jwt.SigningMethodHS256, hmacKey("k1", 'b').Secret, hs, validTokenClaims()),
		"alg none by hand":     none,
		"alg none via library": noneLib,
		"HS384":                forgeToken(t, jwt.SigningMethodHS384, k1.Secret, hs, validTokenClaims()),
		"HS512":                forgeToken(t, jwt.SigningMethodHS512, k1.Secret, hs, validTokenClaims()),
		"RS256":                forgeToken(t, jwt.SigningMethodRS256, rsaKey, hs, validTokenClaims()),
		"unknown kid":          forgeToken(t, jwt.SigningMethodHS256, k1.Secret, map[string]any{"kid": "k9"}, validTokenClaims()),
		"no kid":               forgeToken(t, jwt.SigningMethodHS256, k1.Secret, nil, validTokenClaims()),
		"wrong issuer":         forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "iss", "someone-else")),
		"wrong audience":       forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "aud", "proxy")),
		"no expiry":            forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "exp", nil)),
		"expired":              forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "exp", authEpoch.Add(-time.Minute).Unix())),
		"not yet valid":        forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "nbf", authEpoch.Add(time.Hour).Unix())),
		"issued in the future": forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "iat", authEpoch.Add(time.Hour).Unix())),
		"no subject":           forgeToken(t, jwt.SigningMethodHS256, k1.Secret, hs, withClaim(validTokenClaims(), "sub", nil)),
	}
	for name, tok := range cases {
		if sub, err := a.Verify(tok); !errors.Is(err, verifier.ErrInvalidToken) || sub != "" {
			t.Errorf("%s: accepted (%q, %v)", name, sub, err)
		}
	}
}

func TestTokenExpiresWithClock(t *testing.T) {
	c := &authClock{authEpoch}
	a := newTestAuth(t, c, hmacKey("k1", 'a'))
	tok, _ := a.Issue("acct-1")
	c.now = authEpoch.Add(time.Hour + 29*time.Second) // within the 30 s leeway
	if _, err := a.Verify(tok.Token); err != nil {
		t.Fatalf("inside leeway: %v", err)
	}
	c.now = authEpoch.Add(time.Hour + 31*time.Second)
	if _, err := a.Verify(tok.Token); !errors.Is(err, verifier.ErrInvalidToken) {
		t.Fatalf("after expiry: %v", err)
	}
}

func TestKeyRotation(t *testing.T) {
	c := &authClock{authEpoch}
	old, next := hmacKey("old", 'a'), hmacKey("new", 'b')
	before := newTestAuth(t, c, old)
	during := newTestAuth(t, c, next, old)
	after := newTestAuth(t, c, next)

	oldTok, _ := before.Issue("acct-1")
	newTok, _ := during.Issue("acct-1")
	if _, err := during.Verify(oldTok.Token); err != nil {
		t.Fatalf("old token during rotation: %v", err)
	}
	if _, err := after.Verify(newTok.Token); err != nil {
		t.Fatalf("token signed by the first key: %v", err)
	}
	if _, err := after.Verify(oldTok.Token); !errors.Is(err, verifier.ErrInvalidToken) {
		t.Fatalf("retired key still verifies: %v", err)
	}
}

func TestNewAuthenticatorRefusesBadConfig(t *testing.T) {
	c := &authClock{authEpoch}
	bad := []verifier.TokenConfig{
		authTokenConfig(),
		authTokenConfig(verifier.SigningKey{ID: "k", Secret: []byte("short")}),
		authTokenConfig(hmacKey("k", 'a'), hmacKey("k", 'b')),
		authTokenConfig(hmacKey("bad kid!", 'a')),
		{Issuer: "", Audience: "a", TTL: time.Hour, Keys: []verifier.SigningKey{hmacKey("k", 'a')}},
		{Issuer: "i", Audience: "a", TTL: 0, Keys: []verifier.SigningKey{hmacKey("k", 'a')}},
	}
	for i, cfg := range bad {
		if _, err := verifier.NewAuthenticator(nil, cfg, c.Now); err == nil {
			t.Errorf("config %d accepted", i)
		}
	}
}

func FuzzVerifyToken(f *testing.F) {
	c := &authClock{authEpoch}
	a, err := verifier.NewAuthenticator(nil, authTokenConfig(hmacKey("k1", 'a')), c.Now)
	if err != nil {
		f.Fatal(err)
	}
	good, _ := a.Issue("acct-1")
	f.Add(good.Token)
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add("a.b.c")
	f.Fuzz(func(t *testing.T, s string) {
		// Only our signature can yield a subject; a mutated token must either
		// fail or still carry exactly what we signed.
		sub, err := a.Verify(s)
		if err == nil && sub != "acct-1" {
			t.Fatalf("accepted a token we did not issue: %q", s)
		}
		if err != nil && !errors.Is(err, verifier.ErrInvalidToken) {
			t.Fatalf("uncoded error %v", err)
		}
	})
}
