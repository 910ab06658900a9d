package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// dataRoots are where test data is looked for, in order: committed in the
// repository (what its licence lets us ship, testdata/), fetched by `make
// testdata` (var/), and the mirror CI keeps beside the clone. Each holds the
// same layout: testdata/<set>/..., contracts/<vendor>/....
func dataRoots(repo string) []string {
	return []string{repo, filepath.Join(repo, "var"), filepath.Join(repo, "..", "shared")}
}

// FindData returns the path of elem under the first root that holds it,
// else under the first root whose data set (the first two elements, such
// as testdata/faces) is present: a part of a set that only the mirror
// holds (testdata/liveness/real beside var/'s Foreman frames) is found
// there. A missing set is an error naming `make testdata`; a missing file
// inside a present set is left for the caller's open to report.
func FindData(repo string, elem ...string) (string, error) {
	if len(elem) < 2 {
		return "", fmt.Errorf("testkit: data path %q names no data set (kind/set/...)", elem)
	}
	set := filepath.Join(elem[:2]...)
	found := ""
	for _, root := range dataRoots(repo) {
		if _, err := os.Stat(filepath.Join(root, set)); err != nil {
			continue
		}
		path := filepath.Join(append([]string{root}, elem...)...)
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
		if found == "" {
			found = path
		}
	}
	if found != "" {
		return found, nil
	}
	return "", fmt.Errorf("test data %s is absent (make testdata fetches it into var/)", filepath.ToSlash(set))
}

// Data is FindData for a test: the path of elem, or, when its data set is
// absent, a skip (a failure under CI=true, where every set must be there,
// except the sets testdata/requested.txt lists as not in CI's mirror yet).
// The first skip in a package also writes one summary line to stderr and
// to $IDGATE_SKIP_REPORT, which `make test` prints after the run: go test
// hides a passing package's output.
func Data(t testing.TB, elem ...string) string {
	t.Helper()
	path, err := FindData(RepoRoot(t), elem...)
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" && !requested(RepoRoot(t), elem[0]+"/"+elem[1]) {
		t.Fatalf("testkit: %v; CI must have every data set", err)
	}
	reportSkip.Do(func() { summarizeSkip(RepoRoot(t), err) })
	t.Skipf("testkit: SKIPPING — %v", err)
	return ""
}

// requested reports whether set (kind/set) is listed in
// testdata/requested.txt: pinned, but not in the mirror CI keeps yet, so
// CI cannot have it and its tests skip there too.
func requested(repo, set string) bool {
	b, err := os.ReadFile(filepath.Join(repo, "testdata", "requested.txt"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == set {
			return true
		}
	}
	return false
}

// reportSkip: one summary line per test binary, that is per package.
var reportSkip sync.Once

func summarizeSkip(repo string, cause error) {
	line := fmt.Sprintf("SKIPPED: %s: tests that need test data do not run: %v\n", callerPackage(repo), cause)
	fmt.Fprint(os.Stderr, line)
	if path := os.Getenv("IDGATE_SKIP_REPORT"); path != "" {
		// One short O_APPEND write per package: parallel test binaries
		// do not interleave within a line.
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			_, _ = f.WriteString(line)
			_ = f.Close()
		}
	}
}

// callerPackage is the directory, relative to the repository, of the
// _test.go file that asked for the data.
func callerPackage(repo string) string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.File, "_test.go") {
			if rel, err := filepath.Rel(repo, filepath.Dir(f.File)); err == nil {
				return filepath.ToSlash(rel)
			}
		}
		if !more {
			return "(unknown package)"
		}
	}
}
