package testkit

import "os"

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
