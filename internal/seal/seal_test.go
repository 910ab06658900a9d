package seal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// testKey is 0x00..0x1f: the key the old-format vectors below were sealed
// under.
func testKey() []byte {
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i)
	}
	return key
}

func newSealer(t testing.TB, key []byte) *Sealer {
	t.Helper()
	s, err := New(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealOpen(t *testing.T) {
	s := newSealer(t, testKey())
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
	if got, err := s.Open(s.Seal(nil, "c"), "c"); err != nil || len(got) != 0 {
		t.Fatalf("empty plaintext: %q %v", got, err)
	}

	raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(text, "v1."))
	flip := func(i int) string {
		b := bytes.Clone(raw)
		b[i] ^= 1
		return "v1." + base64.RawURLEncoding.EncodeToString(b)
	}
	otherKey := bytes.Repeat([]byte{7}, KeySize)
	for name, c := range map[string]struct{ text, ctx string }{
		"wrong context":    {text, "abd/access_token"},
		"other purpose":    {text, "abc/webhook_secret"},
		"empty context":    {text, ""},
		"tampered tag":     {flip(len(raw) - 1), "abc/access_token"},
		"tampered body":    {flip(12), "abc/access_token"},
		"tampered nonce":   {flip(0), "abc/access_token"},
		"wrong key":        {newSealer(t, otherKey).Seal([]byte("x"), "abc/access_token"), "abc/access_token"},
		"no prefix":        {strings.TrimPrefix(text, "v1."), "abc/access_token"},
		"not base64":       {"v1.!!!", "abc/access_token"},
		"padded base64":    {text + "==", "abc/access_token"},
		"shorter than tag": {"v1.AAAA", "abc/access_token"},
		"empty":            {"", "abc/access_token"},
		"future version":   {"v2." + strings.TrimPrefix(text, "v1."), "abc/access_token"},
	} {
		if _, err := s.Open(c.text, c.ctx); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: err %v, want ErrOpen", name, err)
		}
	}
}

// TestOldFormats opens values written by the two sealers this package
// replaced, byte for byte as they were persisted: the proxy's store file
// ("v1.", context "<hash>/<field>") and the verifier's webhook secrets
// ("v1:", context the account ID). Both were produced under testKey by the
// old code before it was deleted.
func TestOldFormats(t *testing.T) {
	s := newSealer(t, testKey())
	for _, c := range []struct{ name, text, ctx, want string }{
		{"proxy store secret", "v1.YVMZ0mR0bWlNY3jVbS8WGbhxkuCGe5D5gH4M2wdq3L8rYg-3u-rJ43yih6Z7VjxBMwI",
			"abc123/access_token", "shpat_0123456789abcdef"},
		{"webhook signing secret", "v1:PHYPnfWJokX6wLzlNGRs4qWYSkwbstJIRcoPquLICua8OIVCXlqV-xo-RbV04VXxVNeqLEo-rAwU6xlukbhcu8F19gcSZZVtBxQsj0E",
			"5b1f9c2e-8d4a-4c3b-9e1f-2a3b4c5d6e7f", "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
	} {
		got, err := s.Open(c.text, c.ctx)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
		if _, err := s.Open(c.text, c.ctx+"x"); !errors.Is(err, ErrOpen) {
			t.Errorf("%s opened under another context: %v", c.name, err)
		}
	}
}

func TestNewKeySize(t *testing.T) {
	for _, n := range []int{0, 16, 24, 31, 33} {
		if _, err := New(make([]byte, n)); err == nil {
			t.Errorf("New accepted a %d-byte key", n)
		}
	}
}

// FuzzOpen: no text panics Open, and nothing but a value sealed under the
// key and context opens.
func FuzzOpen(f *testing.F) {
	s := newSealer(f, testKey())
	sealed := s.Seal([]byte("secret"), "ctx")
	f.Add(sealed)
	f.Add("v1:" + strings.TrimPrefix(sealed, "v1."))
	f.Add("v1.")
	f.Add("v1:")
	f.Add("v2.AAAA")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		got, err := s.Open(text, "ctx")
		if err == nil && string(got) != "secret" {
			t.Fatalf("forged text %q opened to %q", text, got)
		}
		if err != nil && !errors.Is(err, ErrOpen) {
			t.Fatalf("error %v does not wrap ErrOpen", err)
		}
	})
}

// Each Ephemeral sealer has its own random key: it opens what it sealed,
// and another one cannot.
func TestEphemeral(t *testing.T) {
	a, b := Ephemeral(), Ephemeral()
	text := a.Seal([]byte("secret"), "ctx")
	if got, err := a.Open(text, "ctx"); err != nil || string(got) != "secret" {
		t.Fatalf("open own: %q, %v", got, err)
	}
	if _, err := b.Open(text, "ctx"); !errors.Is(err, ErrOpen) {
		t.Fatalf("another ephemeral sealer opened it: %v", err)
	}
	if bytes.Equal(NewKey(), NewKey()) {
		t.Fatal("two NewKey calls gave the same key")
	}
}
