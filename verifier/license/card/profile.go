package card

import (
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// An edgeProfile is a line's colour step measured once along its whole
// length in the working copy, so every candidate side on that line reads
// its edge support from two prefix sums instead of sampling the photo
// again: the candidates share their lines (60 lines make thousands of
// outlines), and sampling each side anew was three fifths of the finder's
// time (bench/robust, median 512 ms a photo on the loaded machine).
type edgeProfile struct {
	// s0 is the position along the line (see along) of the first sample;
	// samples follow every profileStep.
	s0 float64
	// hits[i] and counted[i] count the edge samples and the samples that
	// count at all (see step) among the first i.
	hits, counted []int32
}

// profileStep is the spacing of a profile's samples in working pixels.
const profileStep = 1.0

// along is the position of (x, y) along l: its coordinate on the line's
// direction (−sin θ, cos θ).
func along(l line, x, y float64) float64 { return -x*l.sin + y*l.cos }

// profile measures l across the working copy (and its corner slack).
func (wk *work) profile(l line) edgeProfile {
	c, s := l.cos, l.sin
	diag := math.Hypot(float64(wk.w), float64(wk.h))
	p := edgeProfile{s0: -diag}
	n := int(2 * diag / profileStep)
	p.hits, p.counted = make([]int32, n+1), make([]int32, n+1)
	for i := range n {
		t := p.s0 + (float64(i)+0.5)*profileStep
		x, y := l.rho*c-t*s, l.rho*s+t*c
		hit, counted := wk.step(x, y, c, s)
		p.hits[i+1], p.counted[i+1] = p.hits[i], p.counted[i]
		if counted {
			p.counted[i+1]++
			if hit {
				p.hits[i+1]++
			}
		}
	}
	return p
}

// step reports whether the colour stepOff px one side of (x, y) along the
// normal (nx, ny) differs from the colour as far the other side by stepAt
// or more (hit), and whether the sample counts: both sides on the photo
// and not both washed out by glare. The distance is symmetric, so a
// side's profile serves whichever side of it the card lies.
func (wk *work) step(x, y, nx, ny float64) (hit, counted bool) {
	in, ok1 := wk.colour(x-stepOff*nx, y-stepOff*ny)
	out, ok2 := wk.colour(x+stepOff*nx, y+stepOff*ny)
	if !ok1 || !ok2 || (washedOut(in) && washedOut(out)) {
		return false, false
	}
	return colourDist(in, out) >= wk.stepAt(x, y), true
}

// support is the share of edge samples on l between a and b, from t0 to
// t1 of the way (0.1–0.9 leaves out the rounded corners); samples off the
// photo or washed out by glare on both sides do not count either way (a
// card cut by the frame shows part of a side), but a side two thirds off
// the photo has none.
func (p edgeProfile) support(l line, a, b raster.Point, t0, t1 float64) float64 {
	i, j := p.span(l, a, b, t0, t1)
	k, counted := j-i, p.counted[j]-p.counted[i]
	if k <= 0 || 3*int(counted) < k {
		return 0
	}
	return float64(p.hits[j]-p.hits[i]) / float64(counted)
}

// span is the range of p's samples on l between a and b, from t0 to t1
// of the way: samples i to j-1.
func (p edgeProfile) span(l line, a, b raster.Point, t0, t1 float64) (i, j int) {
	sa, sb := along(l, a.X, a.Y), along(l, b.X, b.Y)
	lo, hi := sa+t0*(sb-sa), sa+t1*(sb-sa)
	if lo > hi {
		lo, hi = hi, lo
	}
	i = min(max(int(math.Round((lo-p.s0)/profileStep)), 0), len(p.hits)-1)
	j = min(max(int(math.Round((hi-p.s0)/profileStep)), 0), len(p.hits)-1)
	return i, j
}

// gapSupport is support from 0.1 to 0.9 of the way with the longest run
// of counted samples showing no edge left out: a side that fades into
// the table along one stretch and shows its edge everywhere else. The
// run must lie within the middle half of that span (0 else): a run
// reaching towards an end is a line running on past the card's corner,
// not a side fading (see minGappedSupport).
func (p edgeProfile) gapSupport(l line, a, b raster.Point) float64 {
	i, j := p.span(l, a, b, 0.1, 0.9)
	run, longest, end := 0, 0, 0
	for m := i; m < j; m++ {
		switch {
		case p.hits[m+1] > p.hits[m]:
			run = 0
		case p.counted[m+1] > p.counted[m]:
			if run++; run > longest {
				longest, end = run, m+1
			}
		}
	}
	if longest > 0 && (4*(end-longest-i) < j-i || 4*(j-end) < j-i) {
		return 0
	}
	counted := int(p.counted[j]-p.counted[i]) - longest
	if 3*counted < j-i {
		return 0
	}
	return float64(p.hits[j]-p.hits[i]) / float64(counted)
}

// segmentSupport is the share of samples, profileStep apart along a→b
// from 0.1 to 0.9 of the way (the rounded corners left out), that show a
// step across it (step), for a side that is no line of the search: 0
// when none counts.
func (wk *work) segmentSupport(a, b raster.Point) float64 {
	l := dist(a, b)
	if l == 0 {
		return 0
	}
	nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
	hits, counted := 0, 0
	for s := 0.1 * l; s <= 0.9*l; s += profileStep {
		hit, ok := wk.step(a.X+(b.X-a.X)*s/l, a.Y+(b.Y-a.Y)*s/l, nx, ny)
		if ok {
			counted++
			if hit {
				hits++
			}
		}
	}
	if counted == 0 {
		return 0
	}
	return float64(hits) / float64(counted)
}
