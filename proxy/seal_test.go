package proxy

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func newSealer(t testing.TB) *Sealer {
	t.Helper()
	key := make([]byte, KeySize)
	_, _ = rand.Read(key)
	s, err := NewSealer(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealOpen(t *testing.T) {
	s := newSealer(t)
	text := s.Seal([]byte("storeAccessToken"), "abc/access_token")
	if strings.Contains(text, "storeAccessToken") || !strings.HasPrefix(text, "v1.") {
		t.Fatalf("sealed text %q", text)
	}
	if text == s.Seal([]byte("storeAccessToken"), "abc/access_token") {
		t.Fatal("two seals are equal: nonce reused")
	}
	got, err := s.Open(text, "abc/access_token")
	if err != nil || string(got) != "storeAccessToken" {
		t.Fatalf("open: %q %v", got, err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(text, "v1."))
	raw[len(raw)-1] ^= 1
	flipped := "v1." + base64.RawURLEncoding.EncodeToString(raw)
	for name, c := range map[string]struct{ text, ctx string }{
		"other store":   {text, "abd/access_token"},
		"other field":   {text, "abc/webhook_secret"},
		"tampered":      {flipped, "abc/access_token"},
		"no prefix":     {strings.TrimPrefix(text, "v1."), "abc/access_token"},
		"not base64":    {"v1.!!!", "abc/access_token"},
		"short":         {"v1.AAAA", "abc/access_token"},
		"other key":     {newSealer(t).Seal([]byte("x"), "abc/access_token"), "abc/access_token"},
		"empty":         {"", "abc/access_token"},
		"future format": {"v2." + strings.TrimPrefix(text, "v1."), "abc/access_token"},
	} {
		if _, err := s.Open(c.text, c.ctx); !errors.Is(err, ErrSealed) {
			t.Errorf("%s: err %v, want ErrSealed", name, err)
		}
	}
}

func TestParseKey(t *testing.T) {
	key := bytes.Repeat([]byte{7}, KeySize)
	for _, text := range []string{base64.StdEncoding.EncodeToString(key), base64.RawURLEncoding.EncodeToString(key) + "\n"} {
		if k, err := ParseKey(text); err != nil || !bytes.Equal(k, key) {
			t.Fatalf("ParseKey(%q) = %v, %v", text, k, err)
		}
	}
	for _, bad := range []string{"", "not base64 at all!", base64.StdEncoding.EncodeToString(key[:16])} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}

func TestRefRoundTripAndBinding(t *testing.T) {
	s := newSealer(t)
	sh := Shopper{CartID: "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01", CustomerID: 1 << 40}
	ref, err := s.SealRef("storea", sh)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref) != 73 {
		t.Fatalf("reference is %d characters, documented 73", len(ref))
	}
	if got, err := s.OpenRef("storea", ref); err != nil || got != sh {
		t.Fatalf("OpenRef = %+v, %v", got, err)
	}
	if _, err := s.OpenRef("storeb", ref); !errors.Is(err, ErrSealed) {
		t.Fatalf("reference opened for another store: %v", err)
	}
	if _, err := s.SealRef("storea", Shopper{CartID: "nope"}); err == nil {
		t.Fatal("sealed a non-UUID cart")
	}
	// A value sealed for another purpose is not a reference.
	if _, err := s.OpenRef("storea", s.Seal(make([]byte, 24), "storea/access_token")); !errors.Is(err, ErrSealed) {
		t.Fatalf("token ciphertext accepted as reference: %v", err)
	}
}

func FuzzOpenRef(f *testing.F) {
	s := newSealer(f)
	ref, _ := s.SealRef("h", Shopper{CartID: "0b9f6c1e-4a5d-4a3c-9f57-3d2f1c6b8a01"})
	f.Add(ref)
	f.Add("v1.")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		sh, err := s.OpenRef("h", text)
		if err == nil && text != ref {
			t.Fatalf("forged reference %q opened to %+v", text, sh)
		}
	})
}
