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
	return open(t, models.Hashes)
}

// WithCandidates is Set with the candidate models beside the engine's
// (candidates.sha256, `make candidate-models`), checked alike.
func WithCandidates(t testing.TB) *models.Set {
	t.Helper()
	return open(t, models.Hashes+models.Candidates)
}

func open(t testing.TB, hashes string) *models.Set {
	t.Helper()
	s, err := models.Open("", hashes)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("modelstest: %v (CI must run `make models` first; the candidates come with `make candidate-models`)", err)
		}
		t.Skipf("modelstest: SKIPPING — %v", err)
	}
	return s
}
