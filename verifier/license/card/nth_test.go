package card

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNth checks the selection against a sort on random and tied values.
func TestNth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 300; n += 7 {
		for _, levels := range []int{3, 1000} {
			v := make([]float32, n)
			for i := range v {
				v[i] = float32(rng.IntN(levels))
			}
			sorted := slices.Clone(v)
			slices.Sort(sorted)
			for _, k := range []int{0, n / 4, n / 2, n - 1} {
				if got := nth(slices.Clone(v), k); got != sorted[k] {
					t.Fatalf("n %d levels %d k %d: %v, want %v", n, levels, k, got, sorted[k])
				}
			}
		}
	}
}
