package engines_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// cgoFree are the packages that must build without cgo: the domain, the
// end-user flow, the image decoder, the proxy and the rulesets. cgo
// (zxing-cpp) belongs to this package alone (review finding 1).
var cgoFree = []string{"./verifier/", "./verifier/flow/", "./verifier/imgio/", "./verifier/license/", "./proxy/...", "./rulesets/"}

// goCmd runs the go command at the repository root.
func goCmd(t *testing.T, env []string, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go command not found: %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = testkit.RepoRoot(t)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestCgoStaysAtTheEdge: no package outside the standard library that the
// cgo-free packages depend on has cgo files, and they build with
// CGO_ENABLED=0.
func TestCgoStaysAtTheEdge(t *testing.T) {
	list := goCmd(t, nil, append([]string{"list", "-deps", "-f", "{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}"}, cgoFree...)...)
	if cgo := strings.Fields(list); len(cgo) > 0 {
		t.Errorf("cgo reaches %v through %v", cgoFree, cgo)
	}
	goCmd(t, []string{"CGO_ENABLED=0"}, append([]string{"build"}, cgoFree...)...)
	// The check itself must be able to fail: this package uses cgo.
	if list := goCmd(t, nil, "list", "-deps", "-f", "{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}", "./verifier/engines/"); !strings.Contains(list, "zxing") {
		t.Errorf("the cgo probe found no cgo in verifier/engines: %q", list)
	}
}
