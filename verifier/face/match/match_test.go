package match

import (
	"errors"
	"math"
	"testing"
)

func TestCompareMeasures(t *testing.T) {
	r, err := Default.Compare([]float32{1, 0}, []float32{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Distance-math.Sqrt2) > 1e-12 || math.Abs(r.Cosine) > 1e-12 || r.Tier != NoMatch {
		t.Fatalf("orthogonal: %+v", r)
	}
	r, _ = Default.Compare([]float32{0.3, 0.4}, []float32{0.3, 0.4})
	if r.Distance != 0 || math.Abs(r.Cosine-1) > 1e-12 || r.Tier != DefiniteMatch || r.Confidence != 1 {
		t.Fatalf("identical: %+v", r)
	}
	for _, c := range [][2][]float32{{nil, nil}, {{1}, {1, 2}}, {{0, 0}, {1, 1}}, {{float32(math.NaN())}, {1}}} {
		if _, err := Default.Compare(c[0], c[1]); !errors.Is(err, ErrDescriptor) {
			t.Errorf("Compare(%v, %v): %v, want ErrDescriptor", c[0], c[1], err)
		}
	}
}

func TestTiersAndConfidenceBands(t *testing.T) {
	th := Default
	prev := 2.0
	for d := 0.0; d <= 1.5; d += 0.001 {
		c := th.Confidence(d)
		if c > prev+1e-12 || c < 0 || c > 1 {
			t.Fatalf("confidence not monotone in 0..1 at %v: %v after %v", d, c, prev)
		}
		prev = c
		band := map[Tier][2]float64{DefiniteMatch: {0.9, 1}, LikelyMatch: {0.75, 0.9}, PossibleMatch: {0.5, 0.75}, NoMatch: {0, 0.5}}[th.Tier(d)]
		if c < band[0]-1e-9 || c > band[1]+1e-9 {
			t.Fatalf("distance %v: tier %s but confidence %v outside %v", d, th.Tier(d), c, band)
		}
	}
	for d, want := range map[float64]Tier{0.449: DefiniteMatch, 0.45: LikelyMatch, 0.549: LikelyMatch, 0.55: PossibleMatch, 0.739: PossibleMatch, 0.74: NoMatch} {
		if got := th.Tier(d); got != want {
			t.Errorf("Tier(%v) = %s, want %s", d, got, want)
		}
	}
}
