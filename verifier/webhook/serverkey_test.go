package webhook

import (
	"bytes"
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
