package webhook

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadOrCreateServerKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "var", "secret-key")
	first, err := LoadOrCreateServerKey(path)
	if err != nil || len(first) != 32 {
		t.Fatalf("create: %d bytes, %v", len(first), err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v; want 0600", info.Mode().Perm(), err)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Fatalf("key directory mode %v; want 0700", dir.Mode().Perm())
	}
	again, err := LoadOrCreateServerKey(path)
	if err != nil || !bytes.Equal(again, first) {
		t.Fatalf("reload gave another key (%v)", err)
	}
	// What a restart opens must be what was sealed under.
	sealed, err := SealSecret(first, "acct", "whsec_x")
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := OpenSecret(again, "acct", sealed); err != nil || plain != "whsec_x" {
		t.Fatalf("open after reload: %q, %v", plain, err)
	}

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateServerKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("world-readable key file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("c2hvcnQ=\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateServerKey(bad); err == nil || !strings.Contains(err.Error(), "want 32") {
		t.Fatalf("short key: %v", err)
	}
}

// FuzzParseServerKey: IDGATE_SECRET_KEY text never panics the parser, and
// whatever it accepts is a 32-byte key that reads back the same.
func FuzzParseServerKey(f *testing.F) {
	f.Add("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
	f.Add("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY")
	f.Add(" _-_-MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmM \n")
	f.Add("c2hvcnQ=")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		key, err := ParseServerKey(text)
		if err != nil {
			return
		}
		if len(key) != 32 {
			t.Fatalf("accepted a %d-byte key from %q", len(key), text)
		}
		again, err := ParseServerKey(base64.StdEncoding.EncodeToString(key))
		if err != nil || !bytes.Equal(again, key) {
			t.Fatalf("%q: re-encoded key reads back %x, %v", text, again, err)
		}
	})
}
