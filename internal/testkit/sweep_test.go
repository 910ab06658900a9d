package testkit

import (
	"slices"
	"testing"
)

func TestAlongTakesTurns(t *testing.T) {
	t.Setenv("IDGATE_TEST_SWEEPS", "")
	angles := []float64{-8, 0, 5}
	var walked []float64
	for k := range 6 {
		got := Along(angles, k)
		if len(got) != 1 {
			t.Fatalf("point %d: %v, want one value", k, got)
		}
		walked = append(walked, got[0])
	}
	if want := []float64{-8, 0, 5, -8, 0, 5}; !slices.Equal(walked, want) {
		t.Errorf("sampled %v, want %v", walked, want)
	}
	t.Setenv("IDGATE_TEST_SWEEPS", "full")
	if got := Along(angles, 4); !slices.Equal(got, angles) {
		t.Errorf("full sweep: %v, want every value", got)
	}
}
