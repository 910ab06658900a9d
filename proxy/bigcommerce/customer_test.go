package bigcommerce_test

import (
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

const (
	clientID     = "6sv16tfx3j5gsopm42ss5dd67g2srvq"
	clientSecret = "app-client-secret-9d8c7b"
	storeHash    = "abc123"
)

var shopper = bigcommerce.CurrentCustomer{ID: 4927, Email: "john.doe@example.com", GroupID: "6"}

func sign(t testing.TB, method jwt.SigningMethod, key any, edit func(jwt.MapClaims)) string {
	t.Helper()
	claims := bigcommerce.CustomerClaims(shopper, clientID, storeHash, epoch, 15*time.Minute)
	if edit != nil {
		edit(claims)
	}
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestVerifyCurrentCustomerAcceptsTheStorefrontsToken(t *testing.T) {
	token, err := bigcommercetest.CurrentCustomerJWT(shopper, clientID, clientSecret, storeHash, epoch)
	if err != nil {
		t.Fatal(err)
	}
	got, err := bigcommerce.VerifyCurrentCustomer(token, clientID, clientSecret, storeHash, epoch.Add(14*time.Minute))
	if err != nil || got != shopper {
		t.Fatalf("got %+v, %v; want %+v", got, err, shopper)
	}
	// The platform's example types customer.id as a number and group_id
	// as a string; a numeric group_id is accepted too.
	numeric := sign(t, jwt.SigningMethodHS256, []byte(clientSecret), func(c jwt.MapClaims) {
		c["customer"] = map[string]any{"id": 12, "email": "a@b.c", "group_id": 0}
	})
	got, err = bigcommerce.VerifyCurrentCustomer(numeric, clientID, clientSecret, storeHash, epoch)
	if err != nil || got.ID != 12 || got.GroupID != "0" {
		t.Fatalf("numeric group: %+v, %v", got, err)
	}
}

func TestVerifyCurrentCustomerRefuses(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	hs := []byte(clientSecret)
	cases := []struct {
		name  string
		token string
		now   time.Time
	}{
		{"another store", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { c["store_hash"] = "zzz999" }), epoch},
		{"another audience", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { c["aud"] = "other-app" }), epoch},
		{"expired", sign(t, jwt.SigningMethodHS256, hs, nil), epoch.Add(15 * time.Minute)},
		{"no exp", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { delete(c, "exp") }), epoch},
		{"alg none", sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, nil), epoch},
		{"HS512", sign(t, jwt.SigningMethodHS512, hs, nil), epoch},
		{"RS256", sign(t, jwt.SigningMethodRS256, rsaKey, nil), epoch},
		{"bad signature", sign(t, jwt.SigningMethodHS256, []byte("another-secret"), nil), epoch},
		{"another issuer", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { c["iss"] = "someone" }), epoch},
		{"another operation", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { c["operation"] = "login" }), epoch},
		{"no customer", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { delete(c, "customer") }), epoch},
		{"customer id as text", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { c["customer"] = map[string]any{"id": "x"} }), epoch},
		{"no store hash", sign(t, jwt.SigningMethodHS256, hs, func(c jwt.MapClaims) { delete(c, "store_hash") }), epoch},
		{"not a JWT", "not.a.jwt", epoch},
		{"empty", "", epoch},
		{"oversized", strings.Repeat("a", 9000), epoch},
	}
	for _, tc := range cases {
		got, err := bigcommerce.VerifyCurrentCustomer(tc.token, clientID, clientSecret, storeHash, tc.now)
		if !errors.Is(err, bigcommerce.ErrCustomerToken) || got != (bigcommerce.CurrentCustomer{}) {
			t.Errorf("%s: got %+v, %v; want ErrCustomerToken", tc.name, got, err)
		}
		if err != nil && strings.Contains(err.Error(), clientSecret) {
			t.Errorf("%s: error leaks the client secret", tc.name)
		}
	}
	valid := sign(t, jwt.SigningMethodHS256, hs, nil)
	for _, args := range [][2]string{{"", clientSecret}, {clientID, ""}} {
		if _, err := bigcommerce.VerifyCurrentCustomer(valid, args[0], args[1], storeHash, epoch); !errors.Is(err, bigcommerce.ErrCustomerToken) {
			t.Errorf("client ID %q / empty secret accepted: %v", args[0], err)
		}
	}
}

// FuzzVerifyCurrentCustomer: arbitrary tokens never panic and never yield a
// customer other than the one the seed token was really signed for. The
// same input goes to the app callbacks' verifier (one JWT parser, one
// target): it never panics, and what it refuses is coded.
func FuzzVerifyCurrentCustomer(f *testing.F) {
	f.Add(sign(f, jwt.SigningMethodHS256, []byte(clientSecret), nil))
	f.Add(sign(f, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, nil))
	f.Add("eyJhbGciOiJIUzI1NiJ9.e30.")
	f.Add("...")
	f.Fuzz(func(t *testing.T, token string) {
		got, err := bigcommerce.VerifyCurrentCustomer(token, clientID, clientSecret, storeHash, epoch)
		if err == nil && got != shopper {
			t.Fatalf("accepted a token for %+v", got)
		}
		if err != nil && !errors.Is(err, bigcommerce.ErrCustomerToken) {
			t.Fatalf("uncoded error %v", err)
		}
		if _, err := bigcommerce.VerifySignedPayload(token, clientID, clientSecret, epoch); err != nil && !errors.Is(err, bigcommerce.ErrSignedPayload) {
			t.Fatalf("uncoded signed payload error %v", err)
		}
	})
}
