package webhook

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestNewSecretFormat(t *testing.T) {
	a, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewSecret()
	if a == b {
		t.Fatal("two secrets are equal")
	}
	rest, ok := strings.CutPrefix(a, SecretPrefix)
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if !ok || err != nil || len(raw) != 32 || len(a) != 49 {
		t.Fatalf("secret %q: want whsec_ + base64url(32 bytes), 49 chars", a)
	}
}

func TestSealOpenSecret(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	secret, _ := NewSecret()
	sealed, err := SealSecret(key, "acct-1", secret)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, secret[len(SecretPrefix):]) {
		t.Fatal("sealed form contains the secret")
	}
	again, _ := SealSecret(key, "acct-1", secret)
	if again == sealed {
		t.Fatal("sealing is deterministic (nonce reused)")
	}
	got, err := OpenSecret(key, "acct-1", sealed)
	if err != nil || got != secret {
		t.Fatalf("open: %q, %v", got, err)
	}

	otherKey := bytes.Repeat([]byte{8}, 32)
	tampered := sealed[:len(sealed)-2] + "AA"
	for name, open := range map[string]func() (string, error){
		"other account": func() (string, error) { return OpenSecret(key, "acct-2", sealed) },
		"other key":     func() (string, error) { return OpenSecret(otherKey, "acct-1", sealed) },
		"tampered":      func() (string, error) { return OpenSecret(key, "acct-1", tampered) },
		"no prefix":     func() (string, error) { return OpenSecret(key, "acct-1", sealed[3:]) },
		"bad base64":    func() (string, error) { return OpenSecret(key, "acct-1", "v1:!!!") },
		"too short":     func() (string, error) { return OpenSecret(key, "acct-1", "v1:AAAA") },
	} {
		if _, err := open(); !errors.Is(err, ErrSealed) {
			t.Errorf("%s: got %v, want ErrSealed", name, err)
		}
	}
	if _, err := SealSecret(key[:16], "acct-1", secret); err == nil {
		t.Error("16-byte server key accepted")
	}
}

func FuzzOpenSecret(f *testing.F) {
	key := bytes.Repeat([]byte{7}, 32)
	sealed, _ := SealSecret(key, "a", "whsec_x")
	f.Add(sealed)
	f.Add("v1:")
	f.Add("v2:AAAA")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := OpenSecret(key, "a", s)
		if err == nil && s != sealed && got != "whsec_x" {
			t.Fatalf("forged sealed secret %q opened to %q", s, got)
		}
	})
}
