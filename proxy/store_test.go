package proxy

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

func validStore() Store {
	return Store{
		URL: "https://store-abc123.mybigcommerce.com/cart.php", AccessToken: "tok", AppClientID: "cid",
		AppClientSecret: "csec", IntegrationKey: "idgk_x", WebhookSecret: "whsec_x", WebhookHeaderValue: "hv",
	}
}

func TestNormalizeDefaults(t *testing.T) {
	s := validStore()
	if err := s.Normalize(); err != nil {
		t.Fatal(err)
	}
	if s.Hash != "abc123" || len(s.AllowedOrigins) != 1 || s.AllowedOrigins[0] != "https://store-abc123.mybigcommerce.com" ||
		s.WebhookHeader != DefaultWebhookHeader || s.ApprovalTTL != DefaultApprovalTTL || s.Ruleset != rulesets.Default() ||
		len(s.CheckoutSelectors) != len(DefaultCheckoutSelectors) {
		t.Fatalf("defaults: %+v", s)
	}
	if !s.AllowsOrigin("https://store-abc123.mybigcommerce.com") || s.AllowsOrigin("https://store-abc123.mybigcommerce.com.evil.example") {
		t.Fatal("origin check")
	}
}

func TestNormalizeRefuses(t *testing.T) {
	for name, mutate := range map[string]func(*Store){
		"custom domain without hash": func(s *Store) { s.URL = "https://shop.example" },
		"bad hash":                   func(s *Store) { s.Hash = "ABC/../x" },
		"http storefront":            func(s *Store) { s.URL = "http://shop.example"; s.Hash = "abc" },
		"origin with path":           func(s *Store) { s.AllowedOrigins = []string{"https://shop.example/cart"} },
		"origin not http":            func(s *Store) { s.AllowedOrigins = []string{"ftp://shop.example"} },
		"no token":                   func(s *Store) { s.AccessToken = "" },
		"no client secret":           func(s *Store) { s.AppClientSecret = "" },
		"no webhook secret":          func(s *Store) { s.WebhookSecret = "" },
		"no header value":            func(s *Store) { s.WebhookHeaderValue = "" },
		"no integration key":         func(s *Store) { s.IntegrationKey = "" },
		"ruleset checks nothing":     func(s *Store) { s.Ruleset = rulesets.Ruleset{MinFaceMatch: "bogus"} },
		"release to Shipped":         func(s *Store) { s.ReleaseStatus = 2 },
		"release to held":            func(s *Store) { s.ReleaseStatus = 12 },
	} {
		s := validStore()
		mutate(&s)
		err := s.Normalize()
		if !errors.Is(err, ErrInvalidStore) {
			t.Errorf("%s: err %v", name, err)
		}
		if err != nil && strings.Contains(err.Error(), "tok") && name != "no token" {
			t.Errorf("%s: error leaks a secret: %v", name, err)
		}
	}
}

func TestStoreSecretsRedacted(t *testing.T) {
	s := validStore()
	s.AccessToken = bigcommerce.Secret("very-secret-token")
	for _, out := range []string{fmt.Sprintf("%v", s), fmt.Sprintf("%+v", s), fmt.Sprintf("%#v", s)} {
		if strings.Contains(out, "very-secret-token") {
			t.Fatalf("store printed with its token: %s", out)
		}
	}
}
