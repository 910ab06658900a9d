package models

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileVerifiesHash(t *testing.T) {
	dir := t.TempDir()
	good := []byte("weights")
	sum := sha256.Sum256(good)
	list := "# comment\n" + hex.EncodeToString(sum[:]) + "  pkg/m.bin\n"
	s, err := Open(dir, list)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadFile("pkg/m.bin"); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "make models") {
		t.Fatalf("missing file: got %v, want ErrMissing naming make models", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "m.bin"), []byte("weightz"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadFile("pkg/m.bin"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("corrupt file: got %v, want ErrCorrupt", err)
	}
	if err := s.Check(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Check: got %v, want ErrCorrupt", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "m.bin"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadFile("pkg/m.bin")
	if err != nil || string(got) != "weights" {
		t.Fatalf("good file: got %q, %v", got, err)
	}
	if _, err := s.ReadFile("pkg/other.bin"); !errors.Is(err, ErrUnlisted) {
		t.Fatalf("unlisted: got %v", err)
	}
}

func TestParseListRejectsMalformed(t *testing.T) {
	for _, list := range []string{"", "# only comments\n", "abc  x.bin\n", strings.Repeat("z", 64) + "  x.bin\n", strings.Repeat("a", 64) + "\n"} {
		if _, err := Open(t.TempDir(), list); err == nil {
			t.Errorf("Open(%q) accepted a malformed list", list)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/models")
	if got := DefaultDir(); got != "/somewhere/models" {
		t.Fatalf("override: got %s", got)
	}
	t.Setenv(EnvDir, "")
	got := DefaultDir()
	if !strings.HasSuffix(got, filepath.Join("var", "models")) {
		t.Fatalf("default: got %s", got)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(got)), "go.mod")); err != nil {
		t.Fatalf("default %s is not under the module root: %v", got, err)
	}
}

func TestRepoListParses(t *testing.T) {
	s, err := Open(t.TempDir(), Hashes)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.hashes["human/blazeface.json"]; !ok {
		t.Fatal("repo hash list lacks human/blazeface.json")
	}
}

func FuzzParseList(f *testing.F) {
	f.Add(Hashes)
	f.Add("# c\n" + strings.Repeat("a", 64) + "  *x/y.bin\n")
	f.Fuzz(func(t *testing.T, list string) {
		hashes, err := parseList(list)
		if err == nil && len(hashes) == 0 {
			t.Fatal("accepted a list with no entries")
		}
		for _, h := range hashes {
			if len(h) != 64 {
				t.Fatalf("hash %q is not 64 hex digits", h)
			}
		}
	})
}
