package verifierapi

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/verifier"
	vhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/verifiertest"
)

// The account API calls against a real verifier on loopback: a wrong
// password and the sign-in limit are the proxy's two refusals; a session
// names the account and its mode; a new key keeps the previous key's
// allowlist beside the store's hosts; the secret is the account's.
func TestAccountAPIAgainstTheVerifier(t *testing.T) {
	ctx := context.Background()
	// Its sign-in limit as served (docs/api.md: 5 a minute).
	v := verifiertest.Start(t, verifiertest.Options{Webhooks: true, Config: vhttp.Config{AuthLimit: vhttp.DefaultAuthLimit}})
	acct, err := verifier.NewAccount("owner@shop.example", "a long enough password", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Store.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	c, err := New(v.URL, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SignIn(ctx, "owner@shop.example", "wrong password", true, ""); !errors.Is(err, proxy.ErrAccountSignIn) {
		t.Fatalf("wrong password: %v, want ErrAccountSignIn", err)
	}
	s, err := c.SignIn(ctx, "owner@shop.example", "a long enough password", true, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != acct.ID || s.Email != "owner@shop.example" || !s.Test || s.Token == "" {
		t.Fatalf("session %+v", s)
	}
	first, err := c.CreateIntegrationKey(ctx, s, []string{"store-aaa.mybigcommerce.com"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.CreateIntegrationKey(ctx, s, []string{"store-bbb.mybigcommerce.com", "store-aaa.mybigcommerce.com"})
	if err != nil || second == first {
		t.Fatalf("second key %q, %v", second, err)
	}
	var k struct {
		AllowedDomains []string `json:"allowed_domains"`
		Livemode       bool     `json:"livemode"`
	}
	if err := c.call(ctx, "read", "GET", "/integration-key", s.Token, nil, 200, &k); err != nil {
		t.Fatal(err)
	}
	if len(k.AllowedDomains) != 2 || k.Livemode {
		t.Errorf("test key's allowlist %v, livemode %t: want both stores' hosts once each", k.AllowedDomains, k.Livemode)
	}
	secret, err := c.RotateWebhookSecret(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v.Secrets.SigningSecrets(ctx, acct.ID); err != nil || string(got[0]) != string(secret) {
		t.Errorf("the secret made is not the account's (%v)", err)
	}
	// The verifier allows 5 sign-ins a minute per e-mail: the sixth is
	// the limit, which the page words apart from a wrong password.
	for range 4 {
		_, err = c.SignIn(ctx, "owner@shop.example", "wrong password", true, "")
	}
	if !errors.Is(err, proxy.ErrAccountSignInLimited) {
		t.Errorf("past the sign-in limit: %v, want ErrAccountSignInLimited", err)
	}
}

// The settings page's sign-in names the merchant's address: a verifier
// that trusts the proxy counts its per-address limit (5 a minute) per
// merchant, so one merchant's failed attempts do not lock out the others
// behind the same proxy; one that does not trust it counts the proxy's
// address, as before (docs/decisions.md).
func TestSignInForwardsTheMerchantsAddress(t *testing.T) {
	ctx := context.Background()
	for _, trusted := range []bool{true, false} {
		cfg := vhttp.Config{AuthLimit: vhttp.DefaultAuthLimit}
		if trusted {
			cfg.TrustedProxies = []string{"127.0.0.1"}
		}
		v := verifiertest.Start(t, verifiertest.Options{Config: cfg})
		c, err := New(v.URL, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		// Five e-mails (so the per-e-mail limit is not what stops them)
		// from one merchant's address spend that address's minute.
		for i := range 5 {
			if _, err := c.SignIn(ctx, fmt.Sprintf("nobody%d@shop.example", i), "wrong password", true, "203.0.113.7"); !errors.Is(err, proxy.ErrAccountSignIn) {
				t.Fatalf("trusted %t, attempt %d: %v, want ErrAccountSignIn", trusted, i, err)
			}
		}
		_, err = c.SignIn(ctx, "other@shop.example", "wrong password", true, "198.51.100.4")
		if trusted && !errors.Is(err, proxy.ErrAccountSignIn) {
			t.Errorf("another merchant behind a trusted proxy: %v, want a wrong password, not the limit", err)
		}
		if !trusted && !errors.Is(err, proxy.ErrAccountSignInLimited) {
			t.Errorf("another merchant behind an untrusted proxy: %v, want the shared limit", err)
		}
		if _, err := c.SignIn(ctx, "again@shop.example", "wrong password", true, "203.0.113.7"); !errors.Is(err, proxy.ErrAccountSignInLimited) {
			t.Errorf("trusted %t: the first merchant's sixth attempt: %v, want the limit", trusted, err)
		}
	}
}
