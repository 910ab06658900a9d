package verifierapi

import (
	"context"
	"errors"
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
	if _, err := c.SignIn(ctx, "owner@shop.example", "wrong password", true); !errors.Is(err, proxy.ErrAccountSignIn) {
		t.Fatalf("wrong password: %v, want ErrAccountSignIn", err)
	}
	s, err := c.SignIn(ctx, "owner@shop.example", "a long enough password", true)
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
		_, err = c.SignIn(ctx, "owner@shop.example", "wrong password", true)
	}
	if !errors.Is(err, proxy.ErrAccountSignInLimited) {
		t.Errorf("past the sign-in limit: %v, want ErrAccountSignInLimited", err)
	}
}
