package pdf417

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// MinModulePx is the module width, in photo pixels, below which a located
// symbol that did not decode is reported as too small (Report.TooSmall):
// the user should move closer rather than hold steadier. Measured with
// bench/pdf417 (figures in the README's "Barcode photos"): of the phone
// model's 80 photos (synth.PhotoSet(1, 16), 1-12 MP), 6 of the 11 under
// 2 px decode and none under 1.3 px, 9 of 9 at 2.0-2.5 px; on the real
// ZXing captures shrunk to half, 6 of the 7 that no longer decode measure
// under 2 px. Above it, failures come from blur, glare or perspective
// (8-12 MP photos carry 2-3 px of defocus), where "move closer" is not the
// first advice.
const MinModulePx = 2.0

// TooSmall reports that a barcode-like region was found and not read, and
// its bars are narrower than MinModulePx: the photo was taken too far away
// (or at too low a resolution) for the symbol to be read.
func (r Report) TooSmall() bool {
	return r.Strategy == "" && r.Regions > 0 && r.ModulePx > 0 && r.ModulePx < MinModulePx && r.EdgePx <= MaxEdgePx
}

// MaxEdgePx bounds the spread of the symbol's outer edge (10-90%, photo
// pixels) for TooSmall: a defocused or shaken photo also fits the start
// pattern at a small scale, and its advice is to hold steady, not to move
// closer. A Gaussian blur of sigma 1.6 px spreads an edge over 4 px.
const MaxEdgePx = 4.0

// The start pattern (bar, space widths 8 1 1 1 1 1 1 3 modules) and the
// stop pattern (7 1 1 3 1 1 1 2 1) run the full height of the symbol, so
// in the column means of the upright crop they keep their shape while the
// data columns average to grey, even when the thin bars are blurred beyond
// reading. Fitting them at each end, with the quiet zone outside, gives
// the module width. Read from the outside in, either end of an upright or
// upside-down crop shows the start pattern or the stop pattern reversed.
var (
	startPattern = []float64{8, 1, 1, 1, 1, 1, 1, 3}
	stopPattern  = []float64{7, 1, 1, 3, 1, 1, 1, 2, 1}
)

const (
	// endShare is the part of the crop's width searched at each end.
	endShare = 0.3
	// quietModules of the quiet zone take part in the fit.
	quietModules = 2
	// minFit is the least correlation of a fitted pattern with the
	// profile for its scale to count.
	minFit = 0.7
	// Scales tried, in pixels per module.
	minScale, maxScale, scaleStep = 0.6, 20.0, 1.03
)

// moduleWidth estimates the module width of the symbol in crop (a
// region's straightened crop at scale 1, bars vertical: so in photo
// pixels) from its start and stop patterns, and how far its edges spread
// (a sharp photo's over a pixel or two, a defocused one's over many); ok
// is false when neither end fits.
func moduleWidth(crop *image.Gray) (module, edge float64, ok bool) {
	w, h := crop.Rect.Dx(), crop.Rect.Dy()
	if w < 32 || h < 12 {
		return 0, 0, false
	}
	// The region may hold more than the symbol (the card's text above it,
	// when the locator joined them), so the profile is taken in bands of
	// a sixth of the height, half overlapping, and each end keeps its best
	// fit over the bands: enough rows to average the data columns to grey.
	band := h / 6
	cols := make([]float64, (h+1)*w) // running column sums by row
	for y := 0; y < h; y++ {
		row := crop.Pix[y*crop.Stride : y*crop.Stride+w]
		prev, cur := cols[y*w:(y+1)*w], cols[(y+1)*w:(y+2)*w]
		for x, v := range row {
			cur[x] = prev[x] + float64(v)
		}
	}
	end := int(endShare * float64(w))
	bestL, bestR := fit{}, fit{}
	prof := make([]float64, w)
	for y0 := 0; y0+band <= h; y0 += max(1, band/2) {
		for x := range prof {
			prof[x] = (cols[(y0+band)*w+x] - cols[y0*w+x]) / float64(band)
		}
		for _, pat := range [][]float64{startPattern, reversed(stopPattern)} {
			// Each end read from the outside in: quiet zone, then pattern.
			if f := fitPattern(prof[:end], pat); f.corr > bestL.corr {
				bestL = f
			}
			if f := fitPattern(reversed(prof[w-end:]), pat); f.corr > bestR.corr {
				bestR = f
			}
		}
	}
	okL, okR := bestL.corr >= minFit, bestR.corr >= minFit
	switch {
	case okL && okR:
		return (bestL.scale + bestR.scale) / 2, edgeSpread(crop), true
	case okL:
		return bestL.scale, edgeSpread(crop), true
	case okR:
		return bestR.scale, edgeSpread(crop), true
	}
	return 0, 0, false
}

// edgeSpread is the 10-90% width, in pixels, of the crop's sharpest
// edges across the bars: its contrast (2nd to 98th percentile) over its
// steepest slopes (99th percentile of the horizontal differences), times
// 1.28 (for a Gaussian blur of sigma s an edge's slope peaks at
// contrast/(s·√2π) and its 10-90% width is 2.56·s). It does not depend on
// the fitted scale: a defocused symbol also fits the pattern, falsely, at
// a small scale.
func edgeSpread(crop *image.Gray) float64 {
	w, h := crop.Rect.Dx(), crop.Rect.Dy()
	var hist, dhist [256]int
	n := 0
	for y := 0; y < h; y++ {
		row := crop.Pix[y*crop.Stride : y*crop.Stride+w]
		for x, v := range row {
			hist[v]++
			if x > 0 {
				d := int(v) - int(row[x-1])
				if d < 0 {
					d = -d
				}
				dhist[d]++
				n++
			}
		}
	}
	pct := func(hst *[256]int, total int, q float64) float64 {
		k := int(q * float64(total))
		for i, c := range hst {
			if k < c {
				return float64(i)
			}
			k -= c
		}
		return 255
	}
	contrast := pct(&hist, w*h, 0.98) - pct(&hist, w*h, 0.02)
	slope := pct(&dhist, n, 0.99)
	if slope <= 0 {
		return math.Inf(1)
	}
	return 1.28 * contrast / slope
}

// fit is a pattern's best placement on a profile.
type fit struct{ scale, corr float64 }

// fitPattern slides the pattern, preceded by its quiet zone, along p at
// every scale, and returns the scale of the highest correlation between
// the pattern's darkness and the profile's. The profile is taken as
// constant over each pixel and the pattern as exact bars, so the
// correlation over a window comes from running integrals in a few steps
// per bar.
func fitPattern(p, pat []float64) fit {
	var modules, bars float64
	for i, m := range pat {
		modules += m
		if i%2 == 0 {
			bars += m
		}
	}
	c1, c2 := integrals(p)
	at := func(c []float64, x float64) float64 { // the integral from 0 to x
		i := int(x)
		if i >= len(p) {
			return c[len(p)]
		}
		return c[i] + (x-float64(i))*(c[i+1]-c[i])
	}
	best := fit{}
	for m := minScale; m <= maxScale; m *= scaleStep {
		span := (modules + quietModules) * m
		if span > float64(len(p)) {
			break
		}
		// Offsets in steps of a quarter module, at most half a pixel.
		step := math.Min(0.5, m/4)
		b := bars * m // the window's dark length
		varT := b - b*b/span
		for o := 0.0; o+span <= float64(len(p)); o += step {
			sp := at(c1, o+span) - at(c1, o)
			varP := at(c2, o+span) - at(c2, o) - sp*sp/span
			if varP <= 0 {
				continue
			}
			var spt float64
			x := o + quietModules*m
			for i, wdt := range pat {
				if i%2 == 0 {
					spt += at(c1, x+wdt*m) - at(c1, x)
				}
				x += wdt * m
			}
			// Dark bars mean a low profile: the fit is the negative
			// correlation.
			if c := -(spt - sp*b/span) / math.Sqrt(varP*varT); c > best.corr {
				best = fit{scale: m, corr: c}
			}
		}
	}
	return best
}

// integrals returns the running sums of p and p² (c[i] sums p[:i]).
func integrals(p []float64) ([]float64, []float64) {
	c1 := make([]float64, len(p)+1)
	c2 := make([]float64, len(p)+1)
	for i, v := range p {
		c1[i+1] = c1[i] + v
		c2[i+1] = c2[i] + v*v
	}
	return c1, c2
}

func reversed(p []float64) []float64 {
	out := make([]float64, len(p))
	for i, v := range p {
		out[len(p)-1-i] = v
	}
	return out
}

// EstimateModule locates the likeliest symbol in img and estimates its
// module width in pixels, whether or not it decodes: for measuring the
// estimate against known module sizes (bench/pdf417) and for tests.
func EstimateModule(img image.Image) (float64, bool) {
	s := newSession(raster.Luminance(img))
	if len(s.regions()) == 0 {
		return 0, false
	}
	return s.module()
}
