package main

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"

	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
	"github.com/idgate/idgate/verifier/mrz/reader"
)

// margins tallies, per reading (the glyph matcher's, the fine one) and per
// template blur, how the cells of every zone found stood against the
// printed text: what the readers' margins are calibrated on. A cell is
// ranked among every character but its look-alike twin, as a name cell
// is (a stricter test for the cells a check digit covers).
type margins struct {
	// By reading and blur bin: the margins of the wrong characters above
	// the right one in cells no check digit covers (names), and of those
	// worth the right one's check-digit value anywhere; each zone's weakest
	// cell (right character above the next) where every cell read right.
	wrongNames, wrongBlind, weakestRight map[string][]float64
	zones, adrift                        map[string]int
}

func newMargins() *margins {
	return &margins{wrongNames: map[string][]float64{}, wrongBlind: map[string][]float64{}, weakestRight: map[string][]float64{}, zones: map[string]int{}, adrift: map[string]int{}}
}

// fineBins are the fine reading's blur bins, σ pitches (upper edges).
var fineBins = []float64{0.06, 0.09, 0.12, 0.15, 0.19, 1}

func binOf(r reader.Reading) string {
	if !r.Fine {
		return fmt.Sprintf("glyph matcher, σ %.2f grid px", r.Blur)
	}
	lo := 0.0
	for _, e := range fineBins {
		if r.Blur < e {
			return fmt.Sprintf("fine, σ %.2f-%.2f pitch", lo, e)
		}
		lo = e
	}
	return "fine, ?"
}

// add scores every reading of img against the printed lines.
func (m *margins) add(rd *reader.Reader, img *image.Gray, printed []string) {
	format := mrz.TD3
	if len(printed) == 3 {
		format = mrz.TD1
	}
	for _, r := range rd.Readings(img) {
		if len(r.Scores) != len(printed) {
			continue
		}
		k := binOf(r)
		m.zones[k]++
		// A zone whose cells mostly read wrong was cut or fitted off its
		// print (a cell off, another pitch): its check digits refuse it,
		// and its wrong cells say nothing of the margins.
		if inRegister(r.Scores, printed) < 0.8 {
			m.adrift[k]++
			continue
		}
		weakest, allRight := math.Inf(1), true
		for li, line := range r.Scores {
			for col, scores := range line {
				right := printed[li][col]
				ri := strings.IndexByte(ocrb.Charset, right)
				top := scores[ri]
				if t := mrz.Twin(right); t != 0 {
					top = math.Max(top, scores[strings.IndexByte(ocrb.Charset, t)])
				}
				next := math.Inf(-1)
				for gi, s := range scores {
					c := ocrb.Charset[gi]
					if c == right || c == mrz.Twin(right) {
						continue
					}
					next = math.Max(next, s)
					if s > top && mrz.SameCheckValue(c, right) {
						m.wrongBlind[k] = append(m.wrongBlind[k], s-top)
					}
				}
				if math.IsNaN(top) {
					allRight = false
					continue
				}
				if next > top {
					allRight = false
					if !mrz.Checked(format, li, col) {
						m.wrongNames[k] = append(m.wrongNames[k], next-top)
					}
					continue
				}
				weakest = math.Min(weakest, top-next)
			}
		}
		if allRight {
			m.weakestRight[k] = append(m.weakestRight[k], weakest)
		}
	}
}

// inRegister is the share of the zone's cells whose best character is the
// printed one or its twin.
func inRegister(scores [][][]float64, printed []string) float64 {
	right, n := 0, 0
	for li, line := range scores {
		for col, s := range line {
			n++
			best := 0
			for gi := range s {
				if s[gi] > s[best] {
					best = gi
				}
			}
			if c := ocrb.Charset[best]; c == printed[li][col] || c == mrz.Twin(printed[li][col]) {
				right++
			}
		}
	}
	return float64(right) / float64(max(n, 1))
}

func (m *margins) print() {
	var keys []string
	for k := range m.zones {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Println("Margins against the printed text, per reading and template blur:")
	for _, k := range keys {
		w, b, r := m.wrongNames[k], m.wrongBlind[k], m.weakestRight[k]
		slices.Sort(w)
		slices.Sort(b)
		slices.Sort(r)
		fmt.Printf("  %-34s %3d zones (%d adrift); name cells read wrong %3d, top margins %s; same-value wrong %d, top %s\n", k, m.zones[k], m.adrift[k], len(w), top(w, 4), len(b), top(b, 3))
		fmt.Printf("  %-34s zones all right %d, weakest cell ≥ 0.01/0.02/0.03/0.04/0.05/0.06: %d/%d/%d/%d/%d/%d; lowest %s\n", "", len(r),
			atLeast(r, 0.01), atLeast(r, 0.02), atLeast(r, 0.03), atLeast(r, 0.04), atLeast(r, 0.05), atLeast(r, 0.06), bottom(r, 4))
	}
}

func top(v []float64, n int) string {
	var s []string
	for i := len(v) - 1; i >= 0 && i >= len(v)-n; i-- {
		s = append(s, fmt.Sprintf("%.4f", v[i]))
	}
	return "[" + strings.Join(s, " ") + "]"
}

func bottom(v []float64, n int) string {
	var s []string
	for i := 0; i < len(v) && i < n; i++ {
		s = append(s, fmt.Sprintf("%.4f", v[i]))
	}
	return "[" + strings.Join(s, " ") + "]"
}

func atLeast(v []float64, x float64) int {
	n := 0
	for _, a := range v {
		if a >= x {
			n++
		}
	}
	return n
}
