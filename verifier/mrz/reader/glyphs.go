package reader

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// The template grid: a cell at MatchPitch with a margin of gridMargin
// pixels all round, rows scaled so the capitals fill capRows.
const gridMargin = 2

// glyphSet is every zone character drawn in OCR-B on the grid, each as a
// zero-mean unit vector, so a cell's normalised correlation with it is one
// dot product.
type glyphSet struct {
	chars        []byte
	vecs         [][]float64
	w, h, capRow int
	blur         float64 // Gaussian σ, grid px
}

// blurLevels are the defocus, Gaussian σ in grid pixels, the template sets
// are drawn at: a zone is read with the set its cells match best
// (Reader.Text), so a blurred zone is compared with glyphs blurred alike
// instead of sharp ones, which a blurred H matches no better than a W.
// A photo's blur reaches the grid scaled by MatchPitch over its pitch: a
// σ of 1.2 px at an 11 px pitch is 1.75 on the grid. 2.1 splits the step
// from 1.75 to 2.5, where MinBlurredMargin begins: zones defocused by
// 0.65-0.95 stroke matched the 2.5 templates best and were held to it,
// though no name cell matched at 2.1 reads wrong (bench/mrz's small
// stroke bands at 2, 5 and 8 MP: of 47 zones matched at 2.1, none read a
// name cell wrong; the right ones' weakest name cells stood 0.010-0.040
// above the next; docs/engines.md).
var blurLevels = []float64{0, 1, 1.75, 2.1, 2.5, 3.25}

func newGlyphSet(f *ocrb.Font, blur float64) (*glyphSet, error) {
	capH := f.CapHeight(MatchPitch)
	g := &glyphSet{w: MatchPitch + 2*gridMargin, capRow: int(math.Round(capH)), blur: blur}
	g.h = g.capRow + 2*gridMargin
	for _, c := range []byte(ocrb.Charset) {
		img := raster.New(g.w, g.h, 255)
		if err := f.Draw(img, string(c), gridMargin, float64(gridMargin)+capH, MatchPitch, image.NewUniform(color.Gray{0})); err != nil {
			return nil, fmt.Errorf("mrz reader: template %q: %w", c, err)
		}
		if blur > 0 {
			img = raster.GaussianBlur(img, blur)
		}
		v := make([]float64, g.w*g.h)
		for i := range v {
			v[i] = float64(img.Pix[i])
		}
		if !normalise(v) {
			return nil, fmt.Errorf("mrz reader: template %q is blank", c)
		}
		g.chars, g.vecs = append(g.chars, c), append(g.vecs, v)
	}
	return g, nil
}

// normalise makes v zero-mean and unit-length; false when v is flat.
func normalise(v []float64) bool {
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	norm := 0.0
	for i := range v {
		v[i] -= mean
		norm += v[i] * v[i]
	}
	if norm < 1e-9 {
		return false
	}
	norm = math.Sqrt(norm)
	for i := range v {
		v[i] /= norm
	}
	return true
}

// match reads cell c of line l: the cell resampled onto the grid (its
// pitch to MatchPitch, centred on the line's ink), then the template with
// the highest correlation at any shift of up to shift pixels across and
// one down or up.
func (g *glyphSet) match(crop *image.Gray, l Line, c int) cellRead {
	cell, W := g.sample(crop, l, c)
	// Each template's best score over the shifts, and the shift it took.
	scores := make([]float64, len(g.vecs))
	shifts := make([]int, len(g.vecs))
	for t := range scores {
		scores[t] = math.Inf(-1)
	}
	g.windows(cell, W, func(win []float64, dx, _ int) {
		for t, v := range g.vecs {
			if score := dot(win, v); score > scores[t] {
				scores[t], shifts[t] = score, dx-shift
			}
		}
	})
	best := 0
	for t := range scores {
		if scores[t] > scores[best] {
			best = t
		}
	}
	return cellRead{char: g.chars[best], dx: shifts[best], score: scores[best], scores: scores}
}

// windows calls f with each window of a cell sampled by sample (W wide)
// that a template is compared with, normalised, and where it lies in the
// cell: dx 0 to 2*shift across, dy 0 to 2 down. A flat window (no print)
// is skipped. win is reused from one call to the next.
func (g *glyphSet) windows(cell []float64, W int, f func(win []float64, dx, dy int)) {
	win := make([]float64, g.w*g.h)
	for dy := 0; dy <= 2; dy++ {
		for dx := 0; dx <= 2*shift; dx++ {
			for k := 0; k < g.h; k++ {
				copy(win[k*g.w:(k+1)*g.w], cell[(k+dy)*W+dx:(k+dy)*W+dx+g.w])
			}
			if normalise(win) {
				f(win, dx, dy)
			}
		}
	}
}

// dot is the dot product of a window and a template: their correlation,
// both normalised.
func dot(win, v []float64) float64 {
	s := 0.0
	for i, x := range win {
		s += x * v[i]
	}
	return s
}

// shift is how far, grid pixels, the matcher moves a template across its
// cell either way (and one pixel up or down).
const shift = 2

// sample resamples cell c of line l onto the grid (its pitch to
// MatchPitch, centred on the line's ink), shift pixels wider each side and
// a pixel higher each way: W wide, g.h+2 high.
func (g *glyphSet) sample(crop *image.Gray, l Line, c int) (cell []float64, W int) {
	s := l.Pitch / MatchPitch
	W, H := g.w+2*shift, g.h+2
	top := l.Center - float64(g.capRow)/2*s
	cell = make([]float64, W*H)
	for k := 0; k < H; k++ {
		y := top + (float64(k-1-gridMargin)+0.5)*s - 0.5
		for j := 0; j < W; j++ {
			x := l.X0 + float64(c)*l.Pitch + (float64(j-shift-gridMargin)+0.5)*s - 0.5
			cell[k*W+j] = raster.Bilinear(crop, x, y, 255)
		}
	}
	return cell, W
}

// cellRead is what the matcher read in one cell: the best character of
// all, and every template's score (glyphSet.chars' order) for rank.
type cellRead struct {
	char   byte
	dx     int     // the shift across it matched at, grid pixels
	score  float64 // its correlation
	scores []float64
}

// readLine matches every cell of l, then fits the cells' left edge and
// pitch again to where the glyphs matched (least squares over the cells
// that matched well) and matches once more: the first fit, on the ink
// profile alone, may drift a pixel or two by the line's end.
func (g *glyphSet) readLine(crop *image.Gray, l Line) []cellRead {
	out := make([]cellRead, l.Chars)
	var n, si, so, sii, sio float64
	for c := range out {
		out[c] = g.match(crop, l, c)
		if out[c].score > 0.6 {
			i, o := float64(c), float64(out[c].dx)*l.Pitch/MatchPitch
			n, si, so, sii, sio = n+1, si+i, so+o, sii+i*i, sio+i*o
		}
	}
	if n < float64(l.Chars)/2 || n*sii-si*si == 0 {
		return out
	}
	b := (n*sio - si*so) / (n*sii - si*si)
	a := (so - b*si) / n
	if math.Abs(a) < 0.1 && math.Abs(b*float64(l.Chars)) < 0.1 {
		return out
	}
	l.X0, l.Pitch = l.X0+a, l.Pitch+b
	for c := range out {
		out[c] = g.match(crop, l, c)
	}
	return out
}
