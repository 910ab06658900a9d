// Package testkit holds helpers shared by the tests of every package: where
// the test data lives, and isolated handles on the real PostgreSQL and
// Redis servers that the conformance suites run against.
package testkit

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// RepoRoot is the directory that holds go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testkit: cannot locate source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// unavailable fails under CI=true and skips loudly otherwise: a missing
// server must never turn a CI run green by silently skipping.
func unavailable(t testing.TB, what string, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("testkit: %s unreachable under CI: %v", what, err)
	}
	t.Skipf("testkit: SKIPPING — %s unreachable (%v); these tests run in CI", what, err)
}

// DocBlock returns the text of the document at doc (a path from the
// repository root, such as "docs/operations.md") between the lines
// "<!-- name:begin -->" and "<!-- name:end -->": tables there are checked
// against the code that defines them.
func DocBlock(t testing.TB, doc, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(RepoRoot(t), filepath.FromSlash(doc)))
	if err != nil {
		t.Fatal(err)
	}
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	text := string(raw)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", doc, begin, end)
	}
	return text[i+len(begin) : j]
}
