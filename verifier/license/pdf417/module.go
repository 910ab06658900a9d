package pdf417

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// MinModulePx is the module width, in photo pixels, below which a located
// symbol that did not decode is reported as too small (Report.TooSmall):
// the user should move closer rather than hold steadier. Measured with
// bench/pdf417 (figures in docs/engines.md, "Barcode photos"): of the phone
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

// scales is the grid of module widths tried, minScale·scaleStep^k up to
// maxScale, made by repeated multiplication as it always was, so that a
// search restricted to part of it lands on exactly the same values.
var scales = func() []float64 {
	var out []float64
	for m := minScale; m <= maxScale; m *= scaleStep {
		out = append(out, m)
	}
	return out
}()

// A big crop is searched coarse to fine: the exhaustive fit costs in
// proportion to the profile's length at every scale (340-510 ms of CPU on
// the straightened crop of a 12 MP photo, 2-4k px wide), yet its module
// is several pixels wide. The profile is area-averaged by an integer
// factor d, the patterns fitted on it at every scale from coarseModulePx
// (coarse pixels) up, and each fit refined on the full profile at the
// scales and offsets around it, on the same grid as the exhaustive
// search, so the refined fit is the exhaustive one whenever its peak lies
// there. Scales under coarseModulePx·d are not tried: d is chosen so that
// they are under 1/maxCropModules of the crop's width, finer than any
// symbol the locator crops.
//
// Evidence (2026-11-25): on the 600 straightened crops of bench/pdf417's
// sets and the package's tests (phone-model photos of seeds 1 and 2026,
// the 32 real captures as taken, turned, tilted, upside down and shrunk,
// the degraded sets, the 12 MP timing set), the exhaustive search's
// module spans at most 464 of its crop's width (a 0.6 px false fit on a
// 287 px real capture; true symbols 300-440); the coarse-to-fine search
// gives the exhaustive module and edge spread bit for bit on all 600, 81
// of them shrunk (d = 2-6, crops 1.2-3.9k px wide).
const (
	// maxCropModules bounds a crop's width in modules of the symbol in
	// it: 464 measured at most (above), so 600 keeps a margin of 1.3.
	maxCropModules = 600
	// coarseModulePx is the narrowest module, in coarse pixels, that the
	// coarse fit looks for: at 1 it shrinks crops from 1200 px wide, and
	// the modules it must find measure at least 600/464 ≈ 1.3 coarse px.
	coarseModulePx = 1.0
	// refineScale and refineModules bound the refinement around a coarse
	// fit: scales within a factor of refineScale (±3 grid steps), offsets
	// within refineModules modules plus one coarse pixel.
	refineScale   = 1.1
	refineModules = 2.0
)

// coarseFactor is the shrink factor d of the coarse search for a crop w
// pixels wide; 1 means the exhaustive search.
func coarseFactor(w int) int {
	return max(1, int(float64(w)/(maxCropModules*coarseModulePx)))
}

// moduleWidth estimates the module width of the symbol in crop (a
// region's straightened crop at scale 1, bars vertical: so in photo
// pixels) from its start and stop patterns, and how far its edges spread
// (a sharp photo's over a pixel or two, a defocused one's over many); ok
// is false when neither end fits.
func moduleWidth(crop *image.Gray) (module, edge float64, ok bool) {
	return moduleWidthAt(crop, coarseFactor(crop.Rect.Dx()))
}

// moduleWidthAt is moduleWidth with the coarse search's shrink factor d
// (1: exhaustive).
func moduleWidthAt(crop *image.Gray, d int) (module, edge float64, ok bool) {
	w, h := crop.Rect.Dx(), crop.Rect.Dy()
	if w < 32 || h < 12 {
		return 0, 0, false
	}
	// The region may hold more than the symbol (the card's text above it,
	// when the locator joined them), so the profile is taken in bands of
	// a sixth of the height, half overlapping, and each end keeps its best
	// fit over the bands: enough rows to average the data columns to grey.
	band := h / 6
	step := max(1, band/2)
	sums := bandSums(crop, band, step)
	end := int(endShare * float64(w))
	lo := minScale
	if d > 1 {
		lo = coarseModulePx * float64(d)
	}
	var best [2]fit // left, right
	prof := make([]float64, w)
	for _, s := range sums {
		for x := range prof {
			prof[x] = float64(s[x]) / float64(band)
		}
		// Each end read from the outside in: quiet zone, then pattern.
		sides := [2]columns{newColumns(prof[:end]), newColumns(reversed(prof[w-end:]))}
		for _, pat := range [][]float64{startPattern, reversed(stopPattern)} {
			for i, p := range sides {
				if f := search(p, pat, lo, d); f.corr > best[i].corr {
					best[i] = f
				}
			}
		}
	}
	okL, okR := best[0].corr >= minFit, best[1].corr >= minFit
	switch {
	case okL && okR:
		return (best[0].scale + best[1].scale) / 2, edgeSpread(crop), true
	case okL:
		return best[0].scale, edgeSpread(crop), true
	case okR:
		return best[1].scale, edgeSpread(crop), true
	}
	return 0, 0, false
}

// bandSums returns the column sums of each band of rows (band rows,
// starting every step rows), from one pass of running sums kept only at
// the bands' edges: whole numbers, as the float running sums of every
// row it replaces were (65 MB of them on a 12 MP crop), so the profiles
// are the same to the bit.
func bandSums(crop *image.Gray, band, step int) [][]int32 {
	w, h := crop.Rect.Dx(), crop.Rect.Dy()
	edge := make(map[int][]int32)
	for y0 := 0; y0+band <= h; y0 += step {
		edge[y0], edge[y0+band] = nil, nil
	}
	run := make([]int32, w)
	for y := 0; y <= h; y++ {
		if _, ok := edge[y]; ok {
			edge[y] = append([]int32(nil), run...)
		}
		if y == h {
			break
		}
		for x, v := range crop.Pix[y*crop.Stride : y*crop.Stride+w] {
			run[x] += int32(v)
		}
	}
	var out [][]int32
	for y0 := 0; y0+band <= h; y0 += step {
		s := make([]int32, w)
		for x := range s {
			s[x] = edge[y0+band][x] - edge[y0][x]
		}
		out = append(out, s)
	}
	return out
}

// search fits pat to p at the scales from lo up: exhaustively when d is
// 1, else coarse to fine.
func search(p columns, pat []float64, lo float64, d int) fit {
	if d <= 1 {
		return fitPattern(p, pat, window{lo, maxScale, 0, math.Inf(1)})
	}
	fd := float64(d)
	c := fitPattern(newColumns(shrinkProfile(p.p, d)), pat, window{lo / fd, maxScale / fd, 0, math.Inf(1)})
	if c.corr <= 0 {
		return fit{}
	}
	m, o := c.scale*fd, c.off*fd
	slack := refineModules*m + fd
	return fitPattern(p, pat, window{m / refineScale, m * refineScale, o - slack, o + slack})
}

// shrinkProfile area-averages p by d: coarse pixel i covers p[i·d, (i+1)·d).
func shrinkProfile(p []float64, d int) []float64 {
	out := make([]float64, len(p)/d)
	for i := range out {
		var s float64
		for _, v := range p[i*d : (i+1)*d] {
			s += v
		}
		out[i] = s / float64(d)
	}
	return out
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

// fit is a pattern's best placement on a profile: its scale, offset and
// correlation.
type fit struct{ scale, off, corr float64 }

// window bounds a search: scales in [mLo, mHi], offsets in [oLo, oHi].
type window struct{ mLo, mHi, oLo, oHi float64 }

// columns is a column-mean profile with its running sums of p and p² (c1[i] sums
// p[:i]).
type columns struct{ p, c1, c2 []float64 }

func newColumns(p []float64) columns {
	c1 := make([]float64, len(p)+1)
	c2 := make([]float64, len(p)+1)
	for i, v := range p {
		c1[i+1] = c1[i] + v
		c2[i+1] = c2[i] + v*v
	}
	return columns{p, c1, c2}
}

// fitPattern slides the pattern, preceded by its quiet zone, along p at
// every scale of the grid within win, offsets in steps of a quarter
// module (at most half a pixel) within win, and returns the placement of
// the highest correlation between the pattern's darkness and the
// profile's. The profile is taken as constant over each pixel and the
// pattern as exact bars, so the correlation over a window comes from
// running integrals in a few steps per bar.
func fitPattern(prof columns, pat []float64, win window) fit {
	var modules, bars float64
	for i, m := range pat {
		modules += m
		if i%2 == 0 {
			bars += m
		}
	}
	p, c1, c2 := prof.p, prof.c1, prof.c2
	at := func(c []float64, x float64) float64 { // the integral from 0 to x
		i := int(x)
		if i >= len(p) {
			return c[len(p)]
		}
		return c[i] + (x-float64(i))*(c[i+1]-c[i])
	}
	best := fit{}
	for _, m := range scales {
		if m < win.mLo {
			continue
		}
		span := (modules + quietModules) * m
		if m > win.mHi || span > float64(len(p)) {
			break
		}
		step := math.Min(0.5, m/4)
		b := bars * m // the window's dark length
		varT := b - b*b/span
		// Offsets accumulate from 0 as in the exhaustive search, so a
		// window sees the very same ones.
		for o := 0.0; o+span <= float64(len(p)) && o <= win.oHi; o += step {
			if o < win.oLo {
				continue
			}
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
				best = fit{scale: m, off: o, corr: c}
			}
		}
	}
	return best
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
	return newSession(raster.Luminance(img)).estimateModule()
}

// estimateModule is EstimateModule on the session's image: its first
// region's module, measured once.
func (s *session) estimateModule() (float64, bool) {
	if len(s.regions()) == 0 {
		return 0, false
	}
	return s.module()
}
