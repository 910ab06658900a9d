package testkit

import (
	"hash/fnv"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// FullSweeps reports whether tests that walk a calibration grid (page
// sizes × turns × blurs, say) walk all of it: IDGATE_TEST_SWEEPS=full,
// for the run that changes a threshold the grid calibrates. Otherwise
// (`make test`, CI) they walk a sample, with Along, that still reaches
// every region their assertions name: CI's budget is 25 minutes on two
// cores, and a grid's neighbouring points mostly tell the same thing.
func FullSweeps() bool { return os.Getenv("IDGATE_TEST_SWEEPS") == "full" }

// Along is the values of one axis of a sweep to walk at the grid point k
// of the other axes: all of them under FullSweeps, otherwise only the one
// k selects, so that consecutive points take turns through the axis (every
// value of every axis is still walked, not every combination of them).
func Along[T any](values []T, k int) []T {
	if FullSweeps() || len(values) == 0 {
		return values
	}
	i := k % len(values)
	return values[i : i+1]
}

// Share is the values of a costly set of cases (a browser walk's orders,
// say) to walk in this run: all of them under FullSweeps; otherwise one
// in k, those whose index modulo k is the run's round. The round is
// IDGATE_TEST_ROUND, or else the checkout's commit hash modulo k, as
// scripts/fuzz.sh deals its rounds: a re-run of a commit walks the same
// cases, and which round a commit walks is chance (its hash), not its
// place in the history.
func Share[T any](values []T, k int) []T {
	if FullSweeps() || k <= 1 {
		return values
	}
	r := round() % k
	var out []T
	for i, v := range values {
		if i%k == r {
			out = append(out, v)
		}
	}
	return out
}

// round is IDGATE_TEST_ROUND, or the first 7 hex digits of the checkout's
// HEAD (0 outside a git checkout).
func round() int {
	s, base := os.Getenv("IDGATE_TEST_ROUND"), 10
	if s == "" {
		out, err := exec.Command("git", "rev-parse", "--short=7", "HEAD").Output()
		if err != nil {
			return 0
		}
		s, base = strings.TrimSpace(string(out)), 16
		s = s[:min(7, len(s))]
	}
	n, err := strconv.ParseInt(s, base, 64)
	if err != nil || n < 0 {
		return 0
	}
	return int(n)
}

// TakesTurns skips t unless this run is its turn: one run in k, the
// round as Share deals it, offset by the test's name so that a set of
// such tests splits evenly across the rounds. It is for browser walks
// whose behaviour no other walk covers but that a change rarely breaks
// (a second camera denial, the back button, a stale second phone): CI's
// 25 minutes on two cores no longer hold every walk every run. The round
// is the commit's hash modulo k, so which half a run walks is the luck of
// the hash; IDGATE_TEST_ROUND (the skip says which) walks a given test,
// IDGATE_TEST_SWEEPS=full walks them all.
func TakesTurns(t testing.TB, k int) {
	t.Helper()
	if walk, r := turnOf(t.Name(), k); !walk {
		t.Skipf("takes turns with other walks: one run in %d walks it (IDGATE_TEST_ROUND=%d, or IDGATE_TEST_SWEEPS=full)", k, r)
	}
}

// turnOf reports whether the test name walks in this run of k, and the
// round that walks it.
func turnOf(name string, k int) (bool, int) {
	if FullSweeps() || k <= 1 {
		return true, 0
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	offset := int(h.Sum32() % uint32(k))
	return (round()+offset)%k == 0, (k - offset) % k
}
