package testkit

import (
	"os"
	"os/exec"
	"testing"
)

// Tool finds the external program name a test needs (chromium, node,
// cwebp, ssh-keygen…) and returns its path. A missing program fails the
// test under CI=true, where scripts/deps.sh installs it, and skips it
// loudly elsewhere.
func Tool(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not installed under CI (scripts/deps.sh installs it): %v", name, err)
	}
	t.Skipf("SKIPPING — %s not installed (%v); scripts/deps.sh installs it, and CI runs this test", name, err)
	return ""
}
