// Package enginestest loads the real engines for tests: the face models
// once per test binary and worker count, instead of each test package
// keeping its own sync.Once.
package enginestest

import (
	"sync"
	"testing"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
)

var (
	loadMu sync.Mutex
	loaded = map[int]*engines.Engines{} // by workers
)

// Load returns the real engines with workers workers (0: GOMAXPROCS),
// loaded once per test binary and count; the test is skipped (or fails
// under CI) without the face models.
func Load(t testing.TB, workers int) *engines.Engines {
	t.Helper()
	set := modelstest.Set(t)
	loadMu.Lock()
	defer loadMu.Unlock()
	if eng, ok := loaded[workers]; ok {
		return eng
	}
	eng, err := engines.Load(engines.Config{ModelsDir: set.Dir, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	loaded[workers] = eng
	return eng
}
