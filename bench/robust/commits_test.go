package main

import (
	"regexp"
	"testing"
)

// The commits the bench builds its baselines at are printed by their
// first 12 characters and checked out by git: a short hash (as once set
// by hand) made the bench panic at its end, after minutes of work.
func TestPinnedCommitsAreFullHashes(t *testing.T) {
	full := regexp.MustCompile(`^[0-9a-f]{40}$`)
	for name, c := range map[string]string{
		"baselineCommit":       baselineCommit,
		"finderBaselineCommit": finderBaselineCommit,
		"finderPreviousCommit": finderPreviousCommit,
	} {
		if !full.MatchString(c) {
			t.Errorf("%s = %q: pin a full 40-character commit hash", name, c)
		}
	}
}
