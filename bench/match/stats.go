package main

import (
	"fmt"
	"slices"
)

// scores are one embedding's cosines on genuine and impostor pairs.
type scores struct {
	same, diff []float64
}

// fnmrAt is the false non-match rate at the threshold that lets at most a
// fraction fmr of impostor pairs through (a pair matches above the
// threshold), and that threshold. With fewer than 1/fmr impostor pairs no
// impostor may pass: the threshold is the highest impostor score.
func (s scores) fnmrAt(fmr float64) (fnmr, threshold float64) {
	diff := slices.Clone(s.diff)
	slices.Sort(diff)
	slices.Reverse(diff)
	k := int(fmr * float64(len(diff))) // impostors allowed above
	threshold = diff[min(k, len(diff)-1)]
	miss := 0
	for _, v := range s.same {
		if v <= threshold {
			miss++
		}
	}
	return float64(miss) / float64(len(s.same)), threshold
}

// spread is min / median / max.
func spread(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return fmt.Sprintf("%.3f / %.3f / %.3f", s[0], s[len(s)/2], s[len(s)-1])
}

// gap is the lowest genuine score minus the highest impostor score: above
// zero, one threshold separates every pair.
func (s scores) gap() float64 { return slices.Min(s.same) - slices.Max(s.diff) }
