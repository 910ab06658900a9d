package bigcommerce_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

const redirect = "https://proxy.example/bigcommerce/auth"

var merchant = bigcommerce.AppUser{ID: 1, Email: "owner@idgatetest1.example"}

func app(cp *bigcommercetest.ControlPanel) bigcommerce.App {
	return bigcommerce.App{ClientID: bigcommercetest.AppClientID, ClientSecret: bigcommercetest.AppClientSecret, RedirectURI: redirect, LoginURL: cp.URL}
}

func callback(t *testing.T, cp *bigcommercetest.ControlPanel, hash, scope string) bigcommerce.AuthCallback {
	t.Helper()
	q, err := cp.Install(hash, merchant, scope)
	if err != nil {
		t.Fatal(err)
	}
	return bigcommerce.AuthCallback{Code: q.Get("code"), Scope: q.Get("scope"), Context: q.Get("context")}
}

// The code is exchanged as the guide says (the control panel checks every
// member) for the store's token, which then works on the store's API; a
// code is good once, and a grant without the scopes the plugin needs is
// refused before anything is sent.
func TestExchangeCode(t *testing.T) {
	d := bigcommercetest.Start(t, bigcommercetest.Options{})
	cp := bigcommercetest.StartControlPanel(t, bigcommercetest.ControlPanelOptions{RedirectURI: redirect}, d)
	ctx := context.Background()
	scope := strings.Join(bigcommerce.AppScopes, " ") + " store_v2_information_read_only"
	cb := callback(t, cp, d.StoreHash(), scope)
	inst, err := app(cp).Exchange(ctx, cb)
	if err != nil {
		t.Fatal(err)
	}
	if inst.StoreHash != d.StoreHash() || inst.AccessToken != bigcommercetest.DefaultToken || inst.Owner.ID != 1 || inst.User.ID != 1 || len(inst.Scopes) != 6 {
		t.Fatalf("installation %+v", inst)
	}
	c, err := bigcommerce.New(bigcommerce.Config{StoreHash: inst.StoreHash, Token: inst.AccessToken, BaseURL: cp.APIBaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.InstallFooterScript(ctx, bigcommerce.FooterScript{Name: "idgate", Src: "https://proxy.example/w.js"}); err != nil {
		t.Fatalf("the exchanged token on the store's API: %v", err)
	}
	if _, err := app(cp).Exchange(ctx, cb); !errors.Is(err, bigcommerce.ErrOAuth) {
		t.Errorf("second exchange of one code: %v, want ErrOAuth", err)
	}
	wrong := app(cp)
	wrong.ClientSecret = "not-the-secret"
	if _, err := wrong.Exchange(ctx, callback(t, cp, d.StoreHash(), scope)); !errors.Is(err, bigcommerce.ErrOAuth) || strings.Contains(err.Error(), "not-the-secret") {
		t.Errorf("wrong client secret: %v, want ErrOAuth without the secret", err)
	}
	narrow := callback(t, cp, d.StoreHash(), "store_v2_orders store_cart")
	if _, err := app(cp).Exchange(ctx, narrow); !errors.Is(err, bigcommerce.ErrInvalidInput) || !strings.Contains(err.Error(), "store_v2_customers") {
		t.Errorf("narrow grant: %v, want ErrInvalidInput naming the missing scopes", err)
	}
	for _, bad := range []string{"", "stores/", "stores/UPPER", "store/abc", "stores/a/b"} {
		if _, err := app(cp).Exchange(ctx, bigcommerce.AuthCallback{Code: "x", Scope: scope, Context: bad}); !errors.Is(err, bigcommerce.ErrInvalidInput) {
			t.Errorf("context %q: %v, want ErrInvalidInput", bad, err)
		}
	}
}

// The load, uninstall and remove_user payload: accepted as the control
// panel signs it; refused with a bad signature, another app's audience,
// expired, not yet valid, another algorithm, a malformed store, or without
// the jti a load is taken once by.
func TestVerifySignedPayload(t *testing.T) {
	now := time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)
	d := bigcommercetest.Start(t, bigcommercetest.Options{})
	cp := bigcommercetest.StartControlPanel(t, bigcommercetest.ControlPanelOptions{RedirectURI: redirect, Now: func() time.Time { return now }}, d)
	user := bigcommerce.AppUser{ID: 7, Email: "staff@example.com", Locale: "en-US"}
	p, err := bigcommerce.VerifySignedPayload(cp.SignedPayload(d.StoreHash(), user), bigcommercetest.AppClientID, bigcommercetest.AppClientSecret, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.StoreHash != d.StoreHash() || p.User != user || p.Owner.ID != 1 || p.URL != "/" ||
		p.ID == "" || !p.Expires.Equal(now.Add(24*time.Hour)) {
		t.Fatalf("payload %+v", p)
	}
	sign := func(method jwt.SigningMethod, key any, edit func(jwt.MapClaims)) string {
		c := bigcommerce.SignedPayloadClaims(bigcommercetest.AppClientID, d.StoreHash(), user, merchant, now, "j")
		edit(c)
		s, err := jwt.NewWithClaims(method, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	secret := []byte(bigcommercetest.AppClientSecret)
	same := func(jwt.MapClaims) {}
	for name, tok := range map[string]string{
		"bad signature":  sign(jwt.SigningMethodHS256, []byte("another-secret"), same),
		"wrong audience": sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { c["aud"] = "another-app" }),
		"expired":        sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Second).Unix() }),
		"no expiry":      sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { delete(c, "exp") }),
		"not yet valid":  sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Hour).Unix() }),
		"HS512":          sign(jwt.SigningMethodHS512, secret, same),
		"wrong issuer":   sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { c["iss"] = "bc/apps" }),
		"bad store":      sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { c["sub"] = "stores/../x" }),
		"no user":        sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { delete(c, "user") }),
		"no jti":         sign(jwt.SigningMethodHS256, secret, func(c jwt.MapClaims) { delete(c, "jti") }),
		"empty":          "",
		"garbage":        "a.b.c",
	} {
		_, err := bigcommerce.VerifySignedPayload(tok, bigcommercetest.AppClientID, bigcommercetest.AppClientSecret, now)
		if !errors.Is(err, bigcommerce.ErrSignedPayload) {
			t.Errorf("%s: %v, want ErrSignedPayload", name, err)
		}
	}
}

// Uninstalling removes our script and every hook to our destination (and
// nothing else), each call checked against the documents; a second run
// finds nothing left.
func TestRemoveScriptAndWebhooks(t *testing.T) {
	d, c, _ := setup(t, bigcommercetest.Options{})
	ctx := context.Background()
	if _, err := c.InstallFooterScript(ctx, bigcommerce.FooterScript{Name: "idgate", Src: "https://proxy.example/w.js"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.InstallFooterScript(ctx, bigcommerce.FooterScript{Name: "other", Src: "https://other.example/w.js"}); err != nil {
		t.Fatal(err)
	}
	dest := "https://proxy.example/proxy/v1/stores/" + d.StoreHash() + "/order-webhook"
	for _, scope := range []string{bigcommerce.ScopeOrderCreated, bigcommerce.ScopeCartConverted} {
		if _, err := c.EnsureWebhook(ctx, scope, dest, map[string]string{"X-H": "v"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.EnsureWebhook(ctx, bigcommerce.ScopeOrderCreated, "https://other.example/hook", nil); err != nil {
		t.Fatal(err)
	}
	if n, err := c.RemoveFooterScript(ctx, "idgate"); err != nil || n != 1 {
		t.Fatalf("remove script: %d, %v", n, err)
	}
	if n, err := c.RemoveWebhooks(ctx, dest); err != nil || n != 2 {
		t.Fatalf("remove webhooks: %d, %v", n, err)
	}
	if s := d.Scripts(); len(s) != 1 || s[0].Fields["name"] != "other" {
		t.Errorf("scripts left %+v, want only the other one", s)
	}
	if h := d.Webhooks(); len(h) != 1 || h[0].Destination != "https://other.example/hook" {
		t.Errorf("hooks left %+v, want only the other one", h)
	}
	if n, err := c.RemoveFooterScript(ctx, "idgate"); err != nil || n != 0 {
		t.Errorf("second removal: %d, %v", n, err)
	}
	if n, err := c.RemoveWebhooks(ctx, dest); err != nil || n != 0 {
		t.Errorf("second removal of hooks: %d, %v", n, err)
	}
}
