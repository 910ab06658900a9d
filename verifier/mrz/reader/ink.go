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
// of them; and under, the ink (paper less grey) under each pixel of ch's
// strokes. g is the sharp template set. The median, not the darkest: a
// letter washed over one side reads as the letter its other side makes (a
// B as J, an A as I), whose strokes then lie partly on the washed side and
// partly on the paper; the darkest of them (the 10th percentile) still
// found the unwashed ink beside them (a B washed 90-96 % over its left
// half stood at 0.45-0.47 of its zone's cells, read as J).
func (g *glyphSet) cellInk(crop *image.Gray, l Line, c int, ch byte) (faint float64, under []float64) {
	t := slices.Index(g.chars, ch)
	if t < 0 {
		return math.NaN(), nil
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
			under = append(under, p)
			u, w := float64(j-gridMargin)/MatchPitch, float64(k-gridMargin)/float64(g.capRow)
			for i, q := range inkParts {
				if u >= q[0] && u <= q[1] && w >= q[2] && w <= q[3] {
					parts[i] = append(parts[i], p)
				}
			}
		}
	}
	paper := percentile(all, 0.9)
	faint = math.Inf(1)
	for _, p := range parts {
		if len(p) >= 3 {
			faint = math.Min(faint, paper-percentile(p, 0.5))
		}
	}
	for i, p := range under {
		under[i] = paper - p
	}
	return faint, under
}

// percentile is the q-quantile of v (sorted in place).
func percentile(v []float64, q float64) float64 {
	slices.Sort(v)
	return v[int(q*float64(len(v)-1))]
}

// cellPrint is how a cell prints, against its zone's typical cell: the
// median of the zone's cells' ink at their faintest part (cellInk), and of
// their matches.
type cellPrint struct {
	faint float64 // its ink at its faintest part, over the typical (MinInk)
	bare  float64 // the share of its character's stroke pixels whose ink is under half the typical (MaxBare)
	match float64 // its character's score, over the typical (MinFaintMatch)
}

// inkRatios is each cell's print (cellInk and score, as cells read it)
// against its zone's typical cell.
func (r *Reader) inkRatios(z *Zone, cells [][]cellRead) [][]cellPrint {
	g := r.glyphs[0]
	var all, scores []float64
	out := make([][]cellPrint, len(z.Lines))
	under := make([][][]float64, len(z.Lines))
	for li, l := range z.Lines {
		for c := 0; c < l.Chars; c++ {
			k, u := g.cellInk(z.Crop, l, c, cells[li][c].char)
			out[li] = append(out[li], cellPrint{faint: k, bare: math.NaN(), match: cells[li][c].score})
			under[li] = append(under[li], u)
			if !math.IsNaN(k) {
				all = append(all, k)
			}
			if s := cells[li][c].score; !math.IsNaN(s) {
				scores = append(scores, s)
			}
		}
	}
	if len(all) == 0 {
		return out
	}
	med, typical := percentile(all, 0.5), percentile(scores, 0.5)
	for li, row := range out {
		for c := range row {
			row[c].faint /= med
			row[c].match /= typical
			if u := under[li][c]; len(u) > 0 {
				bare := 0
				for _, p := range u {
					if p < med/2 {
						bare++
					}
				}
				row[c].bare = float64(bare) / float64(len(u))
			}
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
// made unclear stood at 0.009-0.19. So 0.3, between the two. Not caught
// by it: letters washed over one side whose other side makes another
// letter (0.31-0.59; MaxBare below). The filler is held to it alone: a K
// washed 96 % on the left, its arms a <, read as the filler 0.02-0.05
// above the K at 0.13-0.15 (2 and 3 MP; with MinInk 0, E<IKSSON).
const MinInk = 0.3

// A letter washed over one side whose other side makes a simpler letter
// (E and Z washed on the left, T on the right: an I; an O on the left: a
// J) prints over MinInk under that letter's strokes (0.31-0.59 of its
// zone), which lie on what is left of it; where no check digit covers the
// cell (a name, the nationality, the sex) it is a wrong name accepted. Two
// more signs make such a cell unclear, either enough (docs/engines.md):
// half its strokes on bare paper (MaxBare), or faint and matched worse
// than its zone's cells (FaintInk, MinFaintMatch). Measured on letters
// read right, the filler left out, where no check digit covers them:
// bench/mrz's 390 zones (bare at most 0.26; those under FaintInk matched
// at 0.969 of their zone or better, those matched under MinFaintMatch
// printed 0.66 or more) and the 22 real pictures read right (bare at most
// 0.22; under FaintInk, 0.960 or better). Digits at a zone's right end
// reached 0.51 bare and its fillers 0.40 (print fading at the line's
// end): neither is held to these (a check digit covers the digits; a
// filler's one short stroke is where fading shows first). The washed
// sweep (26 letters, each half, 90/93/96 %, 3 MP, 312 pages) read 10
// wrong before, none after: in each zone read on those pages, the washed
// cell stood 0.39-0.48 bare, or printed under 0.46 of its zone's ink
// matched at 0.79-0.85 (an O washed on the left, read as J: 0.34 bare; a
// T washed on the right, on a layout where the I's strokes sat on its
// stem: 0.22), and most cells both.

// MaxBare is the largest share of its strokes a letter read where no check
// digit covers it may show on bare paper (cellPrint.bare). 0.35 at first;
// the 93 % pages again at 2 MP (104) read one wrong with it: a T washed on
// the right, its last layout's fine reading a 1 at 0.326 bare, matched at
// 0.933 of its zone under 0.52 of its ink. So 0.3, still over the 0.26
// of the letters read right. The 93 % pages at 5, 8 and 12 MP read none
// wrong with 0.3; the 80 and 85 % pages at 2 MP read that T wrong again,
// past both signs (0.22 bare, 0.57 of its ink, matched at 0.94), at 3 MP
// none: read as a 1, which asLetter (rank.go) now judges as the I it
// stands for (docs/engines.md).
const MaxBare = 0.3

// FaintInk and MinFaintMatch: a letter read where no check digit covers
// it that prints under FaintInk of its zone's ink (cellPrint.faint) must
// match its template at MinFaintMatch of its zone's typical cell or
// better (cellPrint.match).
const (
	FaintInk      = 0.6
	MinFaintMatch = 0.93
)

// washed: cell (li, c) prints under MinInk, or, read as a letter (letter:
// no check digit covers it, and not the filler), bare past MaxBare or
// faint and poorly matched (ink nil: not measured; NaN, a cell outside the
// crop, has no margin either).
func washed(ink [][]cellPrint, li, c int, letter bool) bool {
	if ink == nil {
		return false
	}
	p := ink[li][c]
	return p.faint < MinInk || letter && (p.bare > MaxBare || p.faint < FaintInk && p.match < MinFaintMatch)
}
