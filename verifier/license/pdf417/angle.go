package pdf417

import (
	"image"
	"math"
)

// Angle search around the structure-tensor estimate: the coarse pass covers
// the tensor's worst bias on 2 px modules at 20° (about 5°), the fine pass
// takes the error well under the ~2.5° that zxing tolerates.
const (
	coarseRange = 8 * math.Pi / 180
	coarseStep  = 0.5 * math.Pi / 180
	fineStep    = 0.1 * math.Pi / 180
)

// refineAngle returns the angle of r's u axis that makes the bars line up
// best, measured on the working copy work (full resolution divided by f).
// Projected onto the u axis at the right angle, every bar falls into the
// same few bins across all rows — above all the start and stop patterns,
// which repeat on every row — so the binned profile has the highest
// variance there.
func refineAngle(work *image.Gray, r region, f float64) float64 {
	// The region in working-copy coordinates.
	cx, cy := (r.center.X+0.5)/f-0.5, (r.center.Y+0.5)/f-0.5
	hu, hv := r.halfU/f, r.halfV/f
	bounds := work.Rect
	ext := math.Hypot(hu, hv)
	x0, x1 := max(bounds.Min.X, int(cx-ext)), min(bounds.Max.X, int(cx+ext)+1)
	y0, y1 := max(bounds.Min.Y, int(cy-ext)), min(bounds.Max.Y, int(cy+ext)+1)
	// Pixels inside the region, relative to its centre; every other row
	// is plenty.
	var xs, ys, vs []float64
	for y := y0; y < y1; y += 2 {
		for x := x0; x < x1; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			if math.Abs(dx*r.u.X+dy*r.u.Y) > hu || math.Abs(dx*r.v.X+dy*r.v.Y) > hv {
				continue
			}
			xs, ys = append(xs, dx), append(ys, dy)
			vs = append(vs, float64(work.Pix[(y-bounds.Min.Y)*work.Stride+x-bounds.Min.X]))
		}
	}
	if len(vs) == 0 {
		return r.angle
	}
	nbins := int(4*ext) + 2
	sum := make([]float64, nbins)
	cnt := make([]float64, nbins)
	score := func(a float64) float64 {
		clear(sum)
		clear(cnt)
		ux, uy := math.Cos(a), math.Sin(a)
		for i, v := range vs {
			// Half-pixel bins along u.
			b := int(2*(xs[i]*ux+ys[i]*uy) + 2*ext)
			if b < 0 || b >= nbins {
				continue
			}
			sum[b] += v
			cnt[b]++
		}
		var total, n float64
		for b := range sum {
			total += sum[b]
			n += cnt[b]
		}
		mean := total / n
		var between float64
		for b := range sum {
			if cnt[b] > 0 {
				d := sum[b]/cnt[b] - mean
				between += cnt[b] * d * d
			}
		}
		return between / n
	}
	best, bestScore := r.angle, score(r.angle)
	search := func(center, span, step float64) {
		for a := center - span; a <= center+span+1e-9; a += step {
			if s := score(a); s > bestScore {
				best, bestScore = a, s
			}
		}
	}
	search(r.angle, coarseRange, coarseStep)
	search(best, coarseStep, fineStep)
	return normAngle(best)
}
