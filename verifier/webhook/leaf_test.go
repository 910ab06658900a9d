package webhook_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeaf keeps webhook below the domain: the verifier imports it (the
// header rule, Delivery), so it must never import the verifier back, nor the
// HTTP layer's error format and web framework.
func TestLeaf(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/idgate/idgate/verifier" || dep == "github.com/idgate/idgate/internal/httperr" ||
			strings.HasPrefix(dep, "github.com/gofiber/") {
			t.Errorf("verifier/webhook depends on %s; it must stay a leaf", dep)
		}
	}
}
