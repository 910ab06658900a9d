package dashboard

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// esbuild bundles without checking types; tsc (pinned in package-lock.json,
// installed by make npm) checks the dashboard strictly (tsconfig.json).
func TestTypeScriptChecks(t *testing.T) {
	tsc := filepath.Join(testkit.RepoRoot(t), "node_modules", "typescript", "bin", "tsc")
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
