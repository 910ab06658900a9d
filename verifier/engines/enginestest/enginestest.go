// Package enginestest loads the real engines for tests: the face models
// once per test binary and worker count, instead of each test package
// keeping its own sync.Once.
package enginestest

import (
	"sync"
	"testing"

	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/flow"
)

var (
	loadMu sync.Mutex
	loaded = map[int]*engines.Engines{} // by workers
	memos  = map[int]flow.Engines{}     // Memo of loaded, by workers
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

// Memoized is Load's engines behind one Memo per test binary and worker
// count, for tests of what is built on the engines (the flow, the HTTP
// API, the pages), not of the engines: the same photo posted again is
// answered without the work.
func Memoized(t testing.TB, workers int) flow.Engines {
	t.Helper()
	eng := Load(t, workers)
	loadMu.Lock()
	defer loadMu.Unlock()
	m, ok := memos[workers]
	if !ok {
		m = Memo(eng)
		memos[workers] = m
	}
	return m
}
