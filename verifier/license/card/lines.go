package card

import (
	"math"
	"sort"
)

// A line is x·cos θ + y·sin θ = rho in working coordinates; frame marks one
// of the working copy's own edges, offered so a card that fills the photo
// can have its outline there.
type line struct {
	theta, rho float64
	// cos and sin are θ's, kept with it: the candidates intersect and
	// sample the same lines thousands of times.
	cos, sin float64
	votes    int
	frame    bool
	// id indexes the line's edgeProfile in work.profiles.
	id int
}

// newLine is the line x·cos θ + y·sin θ = rho.
func newLine(theta, rho float64) line {
	return line{theta: theta, rho: rho, cos: math.Cos(theta), sin: math.Sin(theta)}
}

// The straight-edge search.
const (
	// maxLines is how many of the strongest lines become candidate sides.
	// On bench/robust's 200 photos: 36 lines with the direction taken
	// modulo π found 128 cards right; with the polarity kept apart
	// (houghLines) the same 36 fill with both sides of print lines and
	// found fewer (107 of the 192 card photos, before 119), 60 found 141;
	// one wrong quad accepted before and after. The search is about a
	// fifth slower (median 423 → 512 ms a photo on the loaded machine).
	maxLines = 60
	// thetaBins is the Hough transform's angle resolution: 1°.
	thetaBins = 180
)

// houghLines finds the longest straight edges: edge pixels (a colour
// gradient of edgeAt or more, see texture) vote for the lines through them within 2°
// of their edge's orientation, and the peaks are the lines. The gradient's
// direction is kept over the full turn (θ in 0..2π), so an edge that
// darkens one way and a parallel one a few pixels away that darkens the
// other (a card's edge on the table and the band printed just inside it)
// are two peaks, not one suppressing the other.
func (wk *work) houghLines() []line {
	w, h := wk.w, wk.h
	diag := int(math.Ceil(math.Hypot(float64(w), float64(h))))
	nr := 2*diag + 1
	acc := make([]int32, 2*thetaBins*nr)
	var cos, sin [2 * thetaBins]float64
	for t := range cos {
		a := float64(t) * math.Pi / thetaBins
		cos[t], sin[t] = math.Cos(a), math.Sin(a)
	}
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			m := wk.mag[i]
			if m < wk.edgeAt(x, y) {
				continue
			}
			phi := math.Atan2(float64(wk.gy[i]), float64(wk.gx[i]))
			t0 := int(math.Round(phi * thetaBins / math.Pi))
			px, py := float64(x)+0.5, float64(y)+0.5
			for dt := -2; dt <= 2; dt++ {
				t := ((t0+dt)%(2*thetaBins) + 2*thetaBins) % (2 * thetaBins)
				r := int(math.Round(px*cos[t]+py*sin[t])) + diag
				acc[t*nr+r]++
			}
		}
	}
	// An edge whose pixels straddle two rho bins (print touching it, a
	// slant of a fraction of a degree) splits its votes: each bin counts
	// its neighbours' too.
	smooth := make([]int32, len(acc))
	for t := 0; t < 2*thetaBins; t++ {
		row := acc[t*nr : (t+1)*nr]
		for r := 1; r < nr-1; r++ {
			smooth[t*nr+r] = row[r-1] + row[r] + row[r+1]
		}
	}
	acc = smooth
	// Peaks: at least minVotes, the largest within ±4° and ±6 px (θ wraps
	// round to the opposite sign of rho).
	minVotes := int32(0.1 * float64(min(w, h)))
	var out []line
	for t := 0; t < 2*thetaBins; t++ {
		for r := 0; r < nr; r++ {
			v := acc[t*nr+r]
			if v < minVotes || !isPeak(acc, t, r, nr) {
				continue
			}
			l := newLine(float64(t)*math.Pi/thetaBins, float64(r-diag))
			l.votes = int(v)
			out = append(out, l)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].votes > out[j].votes })
	if len(out) > maxLines {
		out = out[:maxLines]
	}
	for _, f := range []line{newLine(0, 0), newLine(0, float64(w)), newLine(math.Pi/2, 0), newLine(math.Pi/2, float64(h))} {
		f.frame = true
		out = append(out, f)
	}
	return out
}

// isPeak reports whether acc[t][r] is the largest in its neighbourhood
// (ties go to the first in scan order).
func isPeak(acc []int32, t, r, nr int) bool {
	v := acc[t*nr+r]
	for dt := -4; dt <= 4; dt++ {
		tt, rr := (t+dt+2*thetaBins)%(2*thetaBins), r
		for dr := -6; dr <= 6; dr++ {
			q := rr + dr
			if q < 0 || q >= nr || (dt == 0 && dr == 0) {
				continue
			}
			u := acc[tt*nr+q]
			if u > v || (u == v && (tt < t || (tt == t && q < r))) {
				return false
			}
		}
	}
	return true
}

// intersect is where two lines cross; ok false when nearly parallel.
func intersect(a, b line) (x, y float64, ok bool) {
	ca, sa, cb, sb := a.cos, a.sin, b.cos, b.sin
	det := ca*sb - sa*cb
	if math.Abs(det) < 0.2 { // under about 12°
		return 0, 0, false
	}
	return (a.rho*sb - b.rho*sa) / det, (ca*b.rho - cb*a.rho) / det, true
}

// angleBetween is the angle between two lines' directions, 0..π/2. θ
// lies in 0..2π, so one subtraction of π reduces the difference modulo π:
// math.Mod was 4% of the finder's time (bench/robust's profile; the
// candidates pair every two lines).
func angleBetween(a, b line) float64 {
	d := math.Abs(a.theta - b.theta)
	if d >= math.Pi {
		d -= math.Pi
	}
	return math.Min(d, math.Pi-d)
}
