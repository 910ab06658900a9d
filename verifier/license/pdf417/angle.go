package pdf417

import (
	"image"
	"math"
)

// Angle search around an estimate: the coarse pass covers the structure
// tensor's worst bias on 2 px modules at 20° (about 5°) and the lean of a
// symbol's ends under keystone; the fine pass takes the error well under
// the ~2.5° that zxing tolerates.
const (
	coarseRange = 12 * math.Pi / 180
	coarseStep  = 0.5 * math.Pi / 180
	fineStep    = 0.1 * math.Pi / 180
)

// maxSamples caps the points of one angle search, so that a region
// spanning a whole 12 MP photo costs no more than a typical symbol.
const maxSamples = 150_000

// profile holds sample points relative to a centre with their values, and
// scores how sharply they line up when projected onto an axis.
type profile struct {
	xs, ys, vs []float64
	ext        float64 // no point lies farther than this from the centre
	sum, cnt   []float64
}

func newProfile(ext float64) *profile {
	n := int(4*ext) + 2
	return &profile{ext: ext, sum: make([]float64, n), cnt: make([]float64, n)}
}

func (p *profile) add(x, y, v float64) {
	p.xs, p.ys, p.vs = append(p.xs, x), append(p.ys, y), append(p.vs, v)
}

// score projects the points onto the axis at angle a, in half-pixel bins,
// and returns the variance of the bin means: high when equal values share
// bins, i.e. when the axis is perpendicular to the pattern's lines.
func (p *profile) score(a float64) float64 {
	clear(p.sum)
	clear(p.cnt)
	ux, uy := math.Cos(a), math.Sin(a)
	for i, v := range p.vs {
		b := int(2*(p.xs[i]*ux+p.ys[i]*uy) + 2*p.ext)
		if b < 0 || b >= len(p.sum) {
			continue
		}
		p.sum[b] += v
		p.cnt[b]++
	}
	var total, n float64
	for b := range p.sum {
		total += p.sum[b]
		n += p.cnt[b]
	}
	if n == 0 {
		return 0
	}
	mean := total / n
	var between float64
	for b := range p.sum {
		if p.cnt[b] > 0 {
			d := p.sum[b]/p.cnt[b] - mean
			between += p.cnt[b] * d * d
		}
	}
	return between / n
}

// best searches coarse then fine around a for the highest score.
func (p *profile) best(a float64) float64 {
	if len(p.vs) == 0 {
		return a
	}
	best, bestScore := a, p.score(a)
	search := func(center, span, step float64) {
		for x := center - span; x <= center+span+1e-9; x += step {
			if s := p.score(x); s > bestScore {
				best, bestScore = x, s
			}
		}
	}
	search(a, coarseRange, coarseStep)
	search(best, coarseStep, fineStep)
	return best
}

// refineAngle returns the angle of r's u axis that makes the bars line up
// best, measured on the working copy work (full resolution divided by f)
// over the slice of the region from uFrom to uTo (fractions of its half
// width, -1 to 1). Projected onto the u axis at the right angle, every bar
// falls into the same few bins across all rows — above all the start and
// stop patterns, which repeat on every row.
func refineAngle(work *image.Gray, r region, f, uFrom, uTo float64) float64 {
	cx, cy := (r.center.X+0.5)/f-0.5, (r.center.Y+0.5)/f-0.5
	hu, hv := r.halfU/f, r.halfV/f
	b := work.Rect
	ext := math.Hypot(hu, hv)
	x0, x1 := max(b.Min.X, int(cx-ext)), min(b.Max.X, int(cx+ext)+1)
	y0, y1 := max(b.Min.Y, int(cy-ext)), min(b.Max.Y, int(cy+ext)+1)
	p := newProfile(ext)
	// Rows along the bars are redundant: skip enough of them to stay under
	// maxSamples, and at least every other one.
	step := max(2, (x1-x0)*(y1-y0)/maxSamples+1)
	for y := y0; y < y1; y += step {
		for x := x0; x < x1; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			if pu := dx*r.u.X + dy*r.u.Y; pu < uFrom*hu || pu > uTo*hu || math.Abs(dx*r.v.X+dy*r.v.Y) > hv {
				continue
			}
			p.add(dx, dy, float64(work.Pix[(y-b.Min.Y)*work.Stride+x-b.Min.X]))
		}
	}
	return normAngle(p.best(r.angle))
}

// rowAngle returns the direction of the symbol's rows in an upright crop
// (0 = level). Where one row meets the next the bars break, so the
// vertical gradient concentrates on the row boundaries; projected across
// the rows at the right angle it forms a comb of peaks.
func rowAngle(crop *image.Gray) float64 {
	w, h := crop.Rect.Dx(), crop.Rect.Dy()
	cx, cy := float64(w)/2, float64(h)/2
	p := newProfile(math.Hypot(cx, cy))
	// Here the columns are the redundant direction.
	step := max(2, w*h/maxSamples+1)
	for y := 1; y < h-1; y++ {
		up, down := crop.Pix[(y-1)*crop.Stride:], crop.Pix[(y+1)*crop.Stride:]
		for x := 0; x < w; x += step {
			gy := math.Abs(float64(int(down[x]) - int(up[x])))
			p.add(float64(x)-cx, float64(y)-cy, gy)
		}
	}
	// The axis across the rows is the row direction turned by 90°.
	return p.best(math.Pi/2) - math.Pi/2
}
