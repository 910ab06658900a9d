package webhook

import (
	"encoding/base64"
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
