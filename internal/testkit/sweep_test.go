package testkit

import (
	"slices"
	"strconv"
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

func TestShareTakesTurns(t *testing.T) {
	t.Setenv("IDGATE_TEST_SWEEPS", "")
	orders := []string{"a", "b", "c", "d", "e"}
	var walked []string
	for r := range 2 {
		t.Setenv("IDGATE_TEST_ROUND", strconv.Itoa(r+2))
		walked = append(walked, Share(orders, 2)...)
	}
	if want := []string{"a", "c", "e", "b", "d"}; !slices.Equal(walked, want) {
		t.Errorf("two rounds walked %v, want %v", walked, want)
	}
	t.Setenv("IDGATE_TEST_ROUND", "")
	if got := Share(orders, 2); len(got) != 2 && len(got) != 3 {
		t.Errorf("the commit's round walked %v, want half", got)
	}
	t.Setenv("IDGATE_TEST_SWEEPS", "full")
	if got := Share(orders, 2); !slices.Equal(got, orders) {
		t.Errorf("full sweep: %v, want every case", got)
	}
}

func TestTakesTurnsWalksEachTestOnceInKRounds(t *testing.T) {
	t.Setenv("IDGATE_TEST_SWEEPS", "")
	walks := map[string]int{}
	names := []string{"TestCameraDenied", "TestBackButton", "TestStalePhone", "TestHeadingWaits", "TestKeyboard"}
	for r := range 3 {
		t.Setenv("IDGATE_TEST_ROUND", strconv.Itoa(r+6))
		for _, name := range names {
			walk, at := turnOf(name, 3)
			if walk {
				walks[name]++
			}
			if walk != (at == (r+6)%3) {
				t.Errorf("%s in round %d: walks %v, but its round is said to be %d", name, r+6, walk, at)
			}
		}
	}
	for _, name := range names {
		if walks[name] != 1 {
			t.Errorf("%s walked %d times in 3 rounds, want once", name, walks[name])
		}
	}
	t.Setenv("IDGATE_TEST_SWEEPS", "full")
	if walk, _ := turnOf("TestCameraDenied", 3); !walk {
		t.Error("a full sweep skipped a test that takes turns")
	}
	ran := false
	t.Run("full", func(t *testing.T) { TakesTurns(t, 3); ran = true })
	if !ran {
		t.Error("TakesTurns skipped under a full sweep")
	}
}
