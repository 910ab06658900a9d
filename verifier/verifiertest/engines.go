package verifiertest

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

// Engines are the real engines with workers workers (0: GOMAXPROCS),
// loaded once per test binary and count; the test is skipped (or fails
// under CI) without the face models.
func Engines(t testing.TB, workers int) *engines.Engines {
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
