package reader

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// The fine templates (fine.go): every zone character drawn in OCR-B at
// hrPitch pixels per character, its print made heavier or lighter by each
// of fineWeights and then blurred by each of fineBlurs, kept as ink cover
// (0 paper, 1 ink) and sampled at the photo's own pixels, so the zone is
// compared with glyphs as that photo would show them instead of with its
// pixels resampled onto a grid.
const (
	// hrPitch: pixels per character of the fine templates. The zones read
	// this way have a pitch of 12 photo px or less (fineSource), so every
	// photo pixel spans 2 template pixels or more, and the templates are
	// blurred by at least a photo pixel's own width (fineBlurs).
	hrPitch = 24
	// fineReach: how far, pitches, a template reaches past its cell on
	// every side: the blur carries ink that far (3σ of the widest blur),
	// and a neighbour's template is sampled there.
	fineReach = 0.8
)

// fineBlurs are the templates' Gaussian σ, pitches: the photo's defocus
// and its pixels' own width together (a pixel averages a box of one
// pixel, σ 0.29 px: 0.024-0.04 pitch at pitches 7-12 px). They run from
// sharp print to the heaviest blur bench/mrz draws (1.35 strokes of 0.138
// pitch: 0.19 pitch, and the sensor's), in steps of about an eighth of a
// stroke.
var fineBlurs = []float64{0.03, 0.045, 0.06, 0.075, 0.09, 0.105, 0.12, 0.135, 0.15, 0.17, 0.19, 0.21, 0.24}

// fineWeights: how far each stroke edge is moved outwards, pitches (a
// print a fifth heavier than OCR-B's 0.35 mm stroke: 0.035 mm an edge,
// 0.014 pitch).
var fineWeights = []float64{-0.012, 0, 0.012}

// fineSet is the templates at one blur and weight: w×h pixels, each pixel
// holding every glyph's cover in Charset order (glyphs side by side, so
// sampling one point samples them all).
type fineSet struct {
	blur float64 // σ, pitches
	ink  []float32
}

// fineTemplates holds the sets, each drawn the first time a zone asks
// for it (most zones read without them; 39 sets would cost 20 MB).
type fineTemplates struct {
	capH float64 // a capital's height, pitches
	w, h int
	oy   float64 // the template row of the capitals' middle
	n    int     // glyphs
	sets []func() *fineSet
}

func newFineTemplates(f *ocrb.Font) *fineTemplates {
	t := &fineTemplates{capH: f.CapHeight(1), n: len(ocrb.Charset)}
	t.w = int(math.Ceil((1+2*fineReach)*hrPitch)) + 1
	t.h = int(math.Ceil((t.capH+2*fineReach)*hrPitch)) + 1
	t.oy = (t.capH/2 + fineReach) * hrPitch
	weighed := make([]func() [][]float32, len(fineWeights))
	for wi, e := range fineWeights {
		weighed[wi] = sync.OnceValue(func() [][]float32 { return t.weigh(f, e) })
	}
	for _, b := range fineBlurs {
		for wi := range fineWeights {
			t.sets = append(t.sets, sync.OnceValue(func() *fineSet { return t.blurred(weighed[wi](), b) }))
		}
	}
	return t
}

// set is the templates at blur index bi and weight index wi.
func (t *fineTemplates) set(bi, wi int) *fineSet { return t.sets[bi*len(fineWeights)+wi]() }

// weigh draws each glyph's cover, its edges moved outwards by e pitches:
// the cover smoothed by σ0 and cut where a straight edge's smoothed cover
// stands e outside it (a soft cut: the edge stays anti-aliased).
func (t *fineTemplates) weigh(f *ocrb.Font, e float64) [][]float32 {
	const sigma0 = 1.2 // template px
	cutAt := 0.5 * math.Erfc(e*hrPitch/sigma0/math.Sqrt2)
	out := make([][]float32, t.n)
	for gi, c := range []byte(ocrb.Charset) {
		img := raster.New(t.w, t.h, 255)
		// Sample x stands for u = x/hrPitch - fineReach, its pixel's
		// middle: the glyph's left edge drawn half a pixel on.
		baseline := (t.capH+fineReach)*hrPitch + 0.5
		if err := f.Draw(img, string(c), fineReach*hrPitch+0.5, baseline, hrPitch, image.NewUniform(color.Gray{0})); err != nil {
			// New drew every glyph of Charset already: not reached.
			panic(err)
		}
		cover := make([]float32, t.w*t.h)
		for i, v := range img.Pix {
			cover[i] = float32(255-int(v)) / 255
		}
		cover = blurFloat(cover, t.w, t.h, sigma0)
		for i, v := range cover {
			cover[i] = float32(min(1, max(0, (float64(v)-cutAt)/0.2+0.5)))
		}
		out[gi] = cover
	}
	return out
}

// blurred is the weighed covers blurred by σ b pitches, interleaved.
func (t *fineTemplates) blurred(covers [][]float32, b float64) *fineSet {
	s := &fineSet{blur: b, ink: make([]float32, t.w*t.h*t.n)}
	for gi, c := range covers {
		for i, v := range blurFloat(c, t.w, t.h, b*hrPitch) {
			s.ink[i*t.n+gi] = v
		}
	}
	return s
}

// blurFloat is a Gaussian blur of a w×h plane, σ px, paper (0) beyond it:
// the kernel run along the rows, then down the columns.
func blurFloat(p []float32, w, h int, sigma float64) []float32 {
	k := raster.GaussianKernel[float32](sigma, 3)
	return blurPass(blurPass(p, k, w, h, 1, w), k, h, w, w, 1)
}

// blurPass convolves every run of a plane with kernel k: n runs of m
// samples, a sample step apart, each run start one run step on from the
// last (1 and w along the rows; w and 1 down the columns).
func blurPass(p, k []float32, m, n, step, run int) []float32 {
	r := len(k) / 2
	out := make([]float32, len(p))
	for j := 0; j < n; j++ {
		base := j * run
		for i := 0; i < m; i++ {
			var acc float32
			for t, kv := range k {
				if ii := i + t - r; ii >= 0 && ii < m {
					acc += p[base+ii*step] * kv
				}
			}
			out[base+i*step] = acc
		}
	}
	return out
}
