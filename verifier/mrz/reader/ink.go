package reader

import (
	"image"
	"math"
	"slices"
)

// A cell whose print is washed out (glare on the page, ink rubbed off) is
// never a sure cell: a letter that has lost part of its strokes may look
// more like another letter than like itself, above every margin (a G
// washed over its lower half reads as a P, C or S; docs/engines.md), and
// no check digit covers a name. So each cell's ink is measured where it
// is faintest, and a cell far fainter than its zone's typical cell counts
// as unclear, whatever its margin.

// inkParts are the parts of a cell its ink is measured in, each as the
// least and most of u (across the pitch) and v (down the capitals'
// height), 0-1: the top, bottom, left and right 40 %, so that a part
// washed out is not darkened by blur from the ink beside it.
var inkParts = [][4]float64{{0, 1, 0, 0.4}, {0, 1, 0.6, 1}, {0, 0.4, 0, 1}, {0.6, 1, 0, 1}}

// cellInk is how dark cell c of line l, read as ch, prints at its faintest
// part: the cell's paper (its 90th percentile grey) less its print (the
// median of the pixels under ch's strokes, the sharp template placed where
// it matches best) in each of inkParts that ch has strokes in, the least
// of them. g is the sharp template set. The median, not the darkest: a
// letter washed over one side reads as the letter its other side makes (a
// B as J, an A as I), whose strokes then lie partly on the washed side and
// partly on the paper; the darkest of them (the 10th percentile) still
// found the unwashed ink beside them (a B washed 90-96 % over its left
// half stood at 0.45-0.47 of its zone's cells, read as J).
func (g *glyphSet) cellInk(crop *image.Gray, l Line, c int, ch byte) float64 {
	t := slices.Index(g.chars, ch)
	if t < 0 {
		return math.NaN()
	}
	cell, W := g.sample(crop, l, c)
	v := g.vecs[t]
	// The placement the template matches best.
	best, bx, by := math.Inf(-1), 0, 0
	g.windows(cell, W, func(win []float64, dx, dy int) {
		if s := dot(win, v); s > best {
			best, bx, by = s, dx, dy
		}
	})
	lo := slices.Min(v)
	var all []float64
	parts := make([][]float64, len(inkParts))
	for k := 0; k < g.h; k++ {
		for j := 0; j < g.w; j++ {
			p := cell[(k+by)*W+j+bx]
			all = append(all, p)
			if v[k*g.w+j] > lo/2 {
				continue // not under a stroke
			}
			u, w := float64(j-gridMargin)/MatchPitch, float64(k-gridMargin)/float64(g.capRow)
			for i, q := range inkParts {
				if u >= q[0] && u <= q[1] && w >= q[2] && w <= q[3] {
					parts[i] = append(parts[i], p)
				}
			}
		}
	}
	paper := percentile(all, 0.9)
	ink := math.Inf(1)
	for _, p := range parts {
		if len(p) >= 3 {
			ink = math.Min(ink, paper-percentile(p, 0.5))
		}
	}
	return ink
}

// percentile is the q-quantile of v (sorted in place).
func percentile(v []float64, q float64) float64 {
	slices.Sort(v)
	return v[int(q*float64(len(v)-1))]
}

// inkRatios is each cell's ink (cellInk, as cells read it) over the median
// of its zone's cells.
func (r *Reader) inkRatios(z *Zone, cells [][]cellRead) [][]float64 {
	g := r.glyphs[0]
	var all []float64
	out := make([][]float64, len(z.Lines))
	for li, l := range z.Lines {
		for c := 0; c < l.Chars; c++ {
			k := g.cellInk(z.Crop, l, c, cells[li][c].char)
			out[li] = append(out[li], k)
			if !math.IsNaN(k) {
				all = append(all, k)
			}
		}
	}
	if len(all) == 0 {
		return out
	}
	med := percentile(all, 0.5)
	for _, row := range out {
		for c := range row {
			row[c] /= med
		}
	}
	return out
}

// MinInk is the least ink a sure cell prints with, over its zone's typical
// cell (inkRatios). Calibrated (docs/engines.md): of bench/mrz's 408
// photos, the 390 read right had every cell at 0.40 of its zone or more
// but one, a digit at 0.26 (made unclear, settled by its check digit:
// 390/0/18 before and after); of 109 letters washed 90-96 % of the way
// to the paper over a half of their cell (mrztest.Wash, 3 MP), the 104
// made unclear stood at 0.009-0.19. So 0.3, between the two. Not caught:
// 3 letters washed 93 % over one side, whose other side makes an I (E, Z
// on the left, T on the right: 0.34-0.58), still read as I.
const MinInk = 0.3

// washed: cell (li, c) prints under MinInk (ink nil: not measured; NaN,
// a cell outside the crop, has no margin either).
func washed(ink [][]float64, li, c int) bool {
	return ink != nil && ink[li][c] < MinInk
}
