// Package modelstest gives tests the installed, verified model set.
package modelstest

import (
	"os"
	"testing"

	"github.com/idgate/idgate/verifier/face/models"
)

// Set returns the model set after checking every file. When models are
// missing or corrupt it fails under CI=true and skips loudly otherwise:
// a CI run must never turn green by skipping inference tests.
func Set(t testing.TB) *models.Set {
	t.Helper()
	s, err := models.Open("", models.Hashes)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("modelstest: %v (CI must run `make models` first)", err)
		}
		t.Skipf("modelstest: SKIPPING — %v", err)
	}
	return s
}
