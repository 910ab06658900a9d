package seal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseKey(t *testing.T) {
	key := bytes.Repeat([]byte{0xfb}, KeySize) // bytes that differ between the std and URL alphabets
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		got, err := ParseKey(" " + enc.EncodeToString(key) + "\n")
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("%v: %x, %v", enc, got, err)
		}
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString(key[:16]), base64.StdEncoding.EncodeToString(append(key, 0))} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseKey: key text never panics the parser, and whatever it accepts
// is a 32-byte key that reads back the same.
func FuzzParseKey(f *testing.F) {
	f.Add("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	f.Add("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY")
	f.Add(" _-_-MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmM \n")
	f.Add("c2hvcnQ=")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		key, err := ParseKey(text)
		if err != nil {
			return
		}
		if len(key) != KeySize {
			t.Fatalf("accepted a %d-byte key from %q", len(key), text)
		}
		again, err := ParseKey(base64.StdEncoding.EncodeToString(key))
		if err != nil || !bytes.Equal(again, key) {
			t.Fatalf("%q: re-encoded key reads back %x, %v", text, again, err)
		}
	})
}

func TestLoadOrCreateKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "var", "secret-key")
	first, err := LoadOrCreateKey(path)
	if err != nil || len(first) != KeySize {
		t.Fatalf("create: %d bytes, %v", len(first), err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v; want 0600", info.Mode().Perm(), err)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Fatalf("key directory mode %v; want 0700", dir.Mode().Perm())
	}
	again, err := LoadOrCreateKey(path)
	if err != nil || !bytes.Equal(again, first) {
		t.Fatalf("reload gave another key (%v)", err)
	}
	// What a restart opens must be what was sealed under.
	sealed := newSealer(t, first).Seal([]byte("whsec_x"), "acct")
	if plain, err := newSealer(t, again).Open(sealed, "acct"); err != nil || string(plain) != "whsec_x" {
		t.Fatalf("open after reload: %q, %v", plain, err)
	}

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("world-readable key file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("c2hvcnQ=\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateKey(bad); err == nil || !strings.Contains(err.Error(), "want 32") {
		t.Fatalf("short key: %v", err)
	}
}

func TestLoadOrCreateFileGenerateFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	boom := errors.New("no entropy")
	if _, err := LoadOrCreateFile(path, func() (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Fatalf("generate error lost: %v", err)
	}
	// The failed attempt leaves nothing behind, so the next start generates.
	text, err := LoadOrCreateFile(path, func() (string, error) { return "k1\n", nil })
	if err != nil || text != "k1\n" {
		t.Fatalf("after a failed create: %q, %v", text, err)
	}
}
