package verifier_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier"
)

func storeAccount(t *testing.T, s verifier.Store, email, pw string) verifier.Account {
	t.Helper()
	a, err := verifier.NewAccount(email, pw, authEpoch)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestLoginAgainstTheStore(t *testing.T) {
	s := sqliteStore(t)
	c := &authClock{authEpoch}
	a := storeAccount(t, s, "owner@example.com", "correct horse battery staple")
	auth, err := verifier.NewAuthenticator(s, authTokenConfig(hmacKey("k1", 'a')), c.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tok, err := auth.Login(ctx, " OWNER@example.com ", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := auth.Authenticate(ctx, tok.Token); err != nil || got.ID != a.ID {
		t.Fatalf("authenticate: %+v %v", got, err)
	}
	for _, tc := range [][2]string{
		{"owner@example.com", "wrong password"},
		{"nobody@example.com", "correct horse battery staple"},
		{"owner@example.com", strings.Repeat("x", 2000)},
	} {
		if _, err := auth.Login(ctx, tc[0], tc[1]); !errors.Is(err, verifier.ErrInvalidCredentials) {
			t.Errorf("%q: %v", tc, err)
		}
	}
	// A corrupted stored hash is an internal error, not a silent refusal.
	if _, err := s.UpdateAccount(ctx, a.ID, func(acc *verifier.Account) error { acc.PasswordHash = "garbage"; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.Login(ctx, "owner@example.com", "correct horse battery staple"); err == nil || errors.Is(err, verifier.ErrInvalidCredentials) {
		t.Fatalf("corrupt hash: %v", err)
	}
}

func TestIntegrationKeyDomain(t *testing.T) {
	s := sqliteStore(t)
	ctx := context.Background()
	a := storeAccount(t, s, "owner@example.com", "correct horse battery staple")
	keys := verifier.IntegrationKeys{Store: s, Now: (&authClock{authEpoch}).Now}

	k, value, err := keys.Generate(ctx, a.ID, verifier.KeySettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(value, "idgk_") || len(value) != 48 || k.Prefix != value[:12] || k.RateLimitPerHour != 30 || len(k.AllowedDomains) != 0 {
		t.Fatalf("%q %+v", value, k)
	}
	// An empty allowlist accepts no Origin.
	if _, err := keys.Authenticate(ctx, value, "https://shop.example.com"); !errors.Is(err, verifier.ErrOriginNotAllowed) {
		t.Fatalf("empty allowlist: %v", err)
	}
	domains := []string{"*.example.com"}
	if _, err := keys.Update(ctx, a.ID, verifier.KeySettings{AllowedDomains: &domains}); err != nil {
		t.Fatal(err)
	}
	got, err := keys.Authenticate(ctx, value, "https://shop.example.com")
	if err != nil || got.ID != k.ID || got.AccountID != a.ID {
		t.Fatalf("authenticate: %+v %v", got, err)
	}
	// Flipping one character of a valid value, or a value of the wrong
	// shape, is an invalid key.
	flipped := value[:20] + string(rune(value[20]^1)) + value[21:]
	for _, bad := range []string{flipped, value + "A", "idgk_" + strings.Repeat("=", 43), ""} {
		if _, err := keys.Authenticate(ctx, bad, "https://shop.example.com"); !errors.Is(err, verifier.ErrInvalidKey) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	limit := 0
	var ve *verifier.ValidationError
	if _, err := keys.Update(ctx, a.ID, verifier.KeySettings{RateLimitPerHour: &limit}); !errors.As(err, &ve) || ve.Fields[0].Field != "rate_limit_per_hour" {
		t.Fatalf("limit 0: %v", err)
	}
	if err := keys.Revoke(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Authenticate(ctx, value, "https://shop.example.com"); !errors.Is(err, verifier.ErrInvalidKey) {
		t.Fatalf("revoked: %v", err)
	}
	if err := keys.Revoke(ctx, a.ID); !errors.Is(err, verifier.ErrNotFound) {
		t.Fatalf("revoke twice: %v", err)
	}
}
