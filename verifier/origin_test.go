package verifier

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestOriginAllowed(t *testing.T) {
	list := []string{"*.example.com", "shop.store.test", "ports.test:8443", "localhost:5173", "203.0.113.7"}
	cases := []struct {
		origin string
		dev    bool
		want   bool
	}{
		// Wildcard: the root and any depth of subdomain.
		{"https://example.com", false, true},
		{"https://shop.example.com", false, true},
		{"https://a.b.example.com", false, true},
		{"https://SHOP.Example.COM", false, true},
		// The tricky look-alikes never match.
		{"https://evil-example.com", false, false},
		{"https://example.com.evil.net", false, false},
		{"https://notexample.com", false, false},
		{"https://example.co", false, false},
		{"https://xexample.com", false, false},
		// Exact entries match only themselves.
		{"https://shop.store.test", false, true},
		{"https://sub.shop.store.test", false, false},
		{"https://store.test", false, false},
		// Scheme: https only (http for loopback in dev only).
		{"http://shop.example.com", false, false},
		{"http://shop.example.com", true, false},
		{"http://localhost:5173", false, false},
		{"http://localhost:5173", true, true},
		{"https://localhost:5173", false, true},
		{"ftp://shop.example.com", false, false},
		// Ports: no port in the entry means the default port only.
		{"https://shop.example.com:443", false, true},
		{"https://shop.example.com:8443", false, false},
		{"https://ports.test:8443", false, true},
		{"https://ports.test", false, false},
		{"https://ports.test:443", false, false},
		{"http://localhost", true, false},
		{"https://203.0.113.7", false, true},
		// Not an origin at all.
		{"", false, false},
		{"null", false, false},
		{"https://", false, false},
		{"shop.example.com", false, false},
		{"https://shop.example.com/", false, false},
		{"https://shop.example.com/path", false, false},
		{"https://user@shop.example.com", false, false},
		{"https://shop.example.com:0", false, false},
		{"https://shop.example.com:99999", false, false},
		{"https://shop.example.com:+443", false, false},
		{"https://shop.example.com.", false, false},
		{"https://shop_example.com", false, false},
	}
	for _, c := range cases {
		if got := OriginAllowed(c.origin, list, c.dev); got != c.want {
			t.Errorf("OriginAllowed(%q, dev=%v) = %v, want %v", c.origin, c.dev, got, c.want)
		}
	}
}

func TestNormalizeAllowlist(t *testing.T) {
	got, err := NormalizeAllowlist([]string{" Shop.Example.com ", "*.EXAMPLE.com", "shop.example.com", "x.test:8443", "localhost:3000", "xn--bcher-kva.example"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"shop.example.com", "*.example.com", "x.test:8443", "localhost:3000", "xn--bcher-kva.example"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got, err := NormalizeAllowlist(nil); err != nil || len(got) != 0 {
		t.Fatalf("empty list: %v %v", got, err)
	}
}

func TestNormalizeAllowlistRefuses(t *testing.T) {
	bad := []string{"", "*", "*.com", "*.*.example.com", "a.*.example.com", "https://shop.example.com", "shop.example.com/path",
		"-bad.example.com", "bad-.example.com", "exa mple.com", "ex_ample.com", "bücher.example", "shop.example.com:0",
		"shop.example.com:70000", "*.203.0.113.7", "shop.example.com.", strings.Repeat("a", 64) + ".com", "*.localhost"}
	for _, b := range bad {
		_, err := NormalizeAllowlist([]string{"ok.example.com", b})
		var ve *ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, ErrInvalid) || len(ve.Fields) != 1 || ve.Fields[0].Field != "allowed_domains[1]" {
			t.Errorf("%q: %v", b, err)
		}
	}
	many := make([]string, MaxAllowedDomains+1)
	for i := range many {
		many[i] = "example.com"
	}
	if _, err := NormalizeAllowlist(many); !errors.Is(err, ErrInvalid) {
		t.Errorf("too many: %v", err)
	}
}

func FuzzOriginAllowed(f *testing.F) {
	for _, s := range []string{"https://shop.example.com", "http://localhost:5173", "https://[::1]:8080", "https://a.b:1", "null"} {
		f.Add(s, "*.example.com")
	}
	f.Fuzz(func(t *testing.T, origin, entry string) {
		list, err := NormalizeAllowlist([]string{entry})
		if err != nil {
			return
		}
		ok := OriginAllowed(origin, list, true)
		if ok && !strings.HasPrefix(origin, "http") {
			t.Fatalf("accepted non-http origin %q for %q", origin, entry)
		}
		if ok && !OriginAllowed(origin, list, true) {
			t.Fatal("not deterministic")
		}
		// A normalised entry is a fixed point.
		again, err := NormalizeAllowlist(list)
		if err != nil || !reflect.DeepEqual(again, list) {
			t.Fatalf("normalise(%q) not stable: %v %v", list, again, err)
		}
	})
}

func TestCanonicalOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Shop.Example.com":      "https://shop.example.com",
		"https://shop.example.com:443":  "https://shop.example.com",
		"https://shop.example.com:8443": "https://shop.example.com:8443",
		"http://localhost:80":           "http://localhost",
		"http://127.0.0.1:8082":         "http://127.0.0.1:8082",
		"https://[::1]:8080":            "https://[::1]:8080",
	} {
		if got, ok := CanonicalOrigin(in); !ok || got != want {
			t.Errorf("CanonicalOrigin(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "null", "ftp://shop.example.com", "https://shop.example.com/path", "https://user@shop.example.com"} {
		if got, ok := CanonicalOrigin(in); ok {
			t.Errorf("CanonicalOrigin(%q) = %q, want refused", in, got)
		}
	}
}
