package reader

import (
	"math"
	"strings"

	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// ocrbChars are the zone's characters in the templates' order.
var ocrbChars = []byte(ocrb.Charset)

// glyphIndex is c's place in ocrbChars.
func glyphIndex(c byte) int { return strings.IndexByte(ocrb.Charset, c) }

// fineRead reads zone z again with the fine templates, starting from what
// the glyph matcher read in it (first): where each cell lies, then the
// zone's blur and weight, then every cell against every glyph with its
// neighbours' ink drawn in, twice (the second time with the neighbours
// as the first time read them). It answers the cells and the blur, σ
// pitches, of the set they were read with; no cells when that blur is
// upTo or more: matching every cell against every glyph (37 glyphs at 15
// shifts, twice) is most of the reading's work, spent on a zone the
// margins would refuse.
func (r *Reader) fineRead(z *Zone, first [][]cellRead, upTo float64) ([][]cellRead, float64) {
	t := r.fine
	fz := newFineZone(z, t.capH)
	chars := make([][]int, len(first))
	for li, line := range first {
		for _, c := range line {
			chars[li] = append(chars[li], glyphIndex(c.char))
		}
	}
	// Where each cell lies: its first reading's template at a middle blur,
	// shifted up to 0.2 pitch across and 0.1 up or down; then each line's
	// shifts fitted straight (the fit's pitch and left edge may be a
	// little off; a cell read wrong first may find a wrong place).
	mid := t.set(len(fineBlurs)/2, 1)
	out := make([]float64, t.n)
	for li, row := range fz.cells {
		var fit lineFit
		for c := range row {
			if !row[c].ok {
				continue
			}
			best := math.Inf(-1)
			ctx := make([]float32, len(row[c].x))
			for du := -0.2; du <= 0.2001; du += 0.05 {
				for dv := -0.1; dv <= 0.1001; dv += 0.05 {
					t.scores(mid, &row[c], du, dv, ctx, []int{chars[li][c]}, out)
					if s := out[chars[li][c]]; s > best {
						best, fz.du[li][c], fz.dv[li][c] = s, du, dv
					}
				}
			}
			if best > 0.5 {
				fit.add(float64(c), fz.du[li][c], fz.dv[li][c])
			}
		}
		if fit.n < float64(len(row))/2 {
			continue
		}
		for c := range row {
			fz.du[li][c], fz.dv[li][c] = fit.at(float64(c))
		}
	}
	// The zone's blur, then its weight, then the blur again beside it:
	// the set under which the first reading's templates match best.
	bi, wi := 0, 1
	bestScore := math.Inf(-1)
	try := func(b, w int) {
		if b < 0 || b >= len(fineBlurs) {
			return
		}
		if s := t.agreement(t.set(b, w), fz, chars); s > bestScore {
			bestScore, bi, wi = s, b, w
		}
	}
	for b := range fineBlurs {
		try(b, 1)
	}
	for w := range fineWeights {
		try(bi, w)
	}
	b0 := bi
	try(b0-1, wi)
	try(b0+1, wi)
	s := t.set(bi, wi)
	if s.blur >= upTo {
		return nil, s.blur
	}
	t.settle(s, fz, chars)
	var cells [][]cellRead
	for pass := 0; pass < 2; pass++ {
		cells = t.readAll(s, fz, chars)
		changed := false
		for li, line := range cells {
			for c, cr := range line {
				if g := glyphIndex(cr.char); g != chars[li][c] {
					chars[li][c], changed = g, true
				}
			}
		}
		if !changed {
			break
		}
	}
	return cells, s.blur
}

// lineFit fits a line's cell shifts straight, least squares: du and dv
// each a + b·cell.
type lineFit struct{ n, si, sii, su, siu, sv, siv float64 }

func (f *lineFit) add(i, du, dv float64) {
	f.n, f.si, f.sii, f.su, f.siu, f.sv, f.siv = f.n+1, f.si+i, f.sii+i*i, f.su+du, f.siu+i*du, f.sv+dv, f.siv+i*dv
}

func (f *lineFit) at(i float64) (du, dv float64) {
	d := f.n*f.sii - f.si*f.si
	if d == 0 {
		return f.su / f.n, f.sv / f.n
	}
	bu, bv := (f.n*f.siu-f.si*f.su)/d, (f.n*f.siv-f.si*f.sv)/d
	return (f.su-bu*f.si)/f.n + bu*i, (f.sv-bv*f.si)/f.n + bv*i
}

// agreement is how well the zone's cells match the set's templates of
// the characters read in them, each at its best shift near its place
// (sum of correlations).
func (t *fineTemplates) agreement(s *fineSet, fz *fineZone, chars [][]int) float64 {
	sum := 0.0
	for li, row := range fz.cells {
		for c := range row {
			if row[c].ok {
				best, _, _ := t.nearBest(s, fz, chars, li, c)
				sum += best
			}
		}
	}
	return sum
}

// settle moves each cell to where its character matches best, within
// 0.025 pitch of the place fitted: the photo's keystone bends a line's
// cells off the straight fit.
func (t *fineTemplates) settle(s *fineSet, fz *fineZone, chars [][]int) {
	for li, row := range fz.cells {
		for c := range row {
			if row[c].ok {
				_, fz.du[li][c], fz.dv[li][c] = t.nearBest(s, fz, chars, li, c)
			}
		}
	}
}

// nearBest is how well cell (li, c) matches the set's template of the
// character read in it at the best of the shifts within 0.025 pitch of
// its place, its neighbours' ink drawn in, and that place.
func (t *fineTemplates) nearBest(s *fineSet, fz *fineZone, chars [][]int, li, c int) (best, du, dv float64) {
	fc, g := &fz.cells[li][c], chars[li][c]
	ctx := t.context(s, fz, chars, li, c)
	out := make([]float64, t.n)
	best, du, dv = math.Inf(-1), fz.du[li][c], fz.dv[li][c]
	for _, ddu := range []float64{-0.025, 0, 0.025} {
		for _, ddv := range []float64{-0.025, 0, 0.025} {
			u, v := fz.du[li][c]+ddu, fz.dv[li][c]+ddv
			t.scores(s, fc, u, v, ctx, []int{g}, out)
			if out[g] > best {
				best, du, dv = out[g], u, v
			}
		}
	}
	return best, du, dv
}

// readAll matches every cell against every glyph, each at its best shift
// within 0.05 pitch across and 0.025 up or down of the cell's place, the
// neighbours' ink (as chars reads them) drawn in. A cell outside the
// photo scores NaN: no margin.
func (t *fineTemplates) readAll(s *fineSet, fz *fineZone, chars [][]int) [][]cellRead {
	cells := make([][]cellRead, len(fz.cells))
	out := make([]float64, t.n)
	for li, row := range fz.cells {
		for c := range row {
			scores := make([]float64, t.n)
			if !row[c].ok {
				for i := range scores {
					scores[i] = math.NaN()
				}
				cells[li] = append(cells[li], cellRead{char: ocrbChars[chars[li][c]], score: math.NaN(), scores: scores})
				continue
			}
			for i := range scores {
				scores[i] = math.Inf(-1)
			}
			ctx := t.context(s, fz, chars, li, c)
			for _, du := range []float64{-0.05, -0.025, 0, 0.025, 0.05} {
				for _, dv := range []float64{-0.025, 0, 0.025} {
					t.scores(s, &row[c], fz.du[li][c]+du, fz.dv[li][c]+dv, ctx, nil, out)
					for g, v := range out {
						scores[g] = math.Max(scores[g], v)
					}
				}
			}
			best := 0
			for g := range scores {
				if scores[g] > scores[best] {
					best = g
				}
			}
			cells[li] = append(cells[li], cellRead{char: ocrbChars[best], score: scores[best], scores: scores})
		}
	}
	return cells
}
