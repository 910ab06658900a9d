package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TypeCheck runs tsc (pinned in package-lock.json, installed by make npm)
// on the tsconfig.json of the calling package's directory: esbuild bundles
// without checking types, so every package with browser code checks them
// strictly here. Without node or TypeScript it skips loudly, and fails
// under CI=true.
func TypeCheck(t testing.TB) {
	t.Helper()
	tsc := filepath.Join(RepoRoot(t), "node_modules", "typescript", "bin", "tsc")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(tsc); err != nil || serr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node or TypeScript missing under CI (%v, %v): make npm installs it", err, serr)
		}
		t.Skipf("SKIPPING the type check — node or TypeScript missing (%v, %v): run make npm", err, serr)
	}
	out, err := exec.Command(node, tsc, "-p", "tsconfig.json").CombinedOutput()
	if err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}
