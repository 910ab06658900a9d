package reader

import (
	"image"
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// straighten cuts the candidate out of img upright at the given pitch,
// refines its turn on the crop, and finds each line's rows and cells.
func straighten(img *image.Gray, c candidate, pitch float64, ink inkPass) (*Zone, error) {
	cand := c
	found := c.length / (float64(c.chars) - 0.4) // the ink spans all but the side bearings
	if c.length <= 0 || c.height <= 0 || c.height > c.length {
		return nil, ErrNoZone
	}
	crop, v := cut(img, c, found, pitch)
	xs, ys := inkPoints(crop, pitch, ink.ratio)
	if len(xs) < 100 {
		return nil, ErrNoZone
	}
	if d := sharpestAngle(xs, ys, -1, 1, 0.05); math.Abs(d) >= 0.05 {
		c.angle += d
		crop, v = cut(img, c, found, pitch)
		xs, ys = inkPoints(crop, pitch, ink.ratio)
	}
	lines := lineRows(crop, xs, ys, c.lines, pitch)
	if lines == nil {
		return nil, ErrNoZone
	}
	if k := spacingPitch(lines) / pitch; k > 0.5 && k < 1-maxPitchError {
		// The lines stand closer than a zone's lines at this pitch can:
		// the candidate's length ran long (a small card's edges within
		// maxGap of its zone on the working copy). Cut again at the pitch
		// their spacing gives. Not the other way: real zones' lines often
		// stand further apart than 1.67 pitches (a Chinese page scanned by
		// PassportEye: 2.4).
		found *= k
		crop, v = cut(img, c, found, pitch)
		xs, ys = inkPoints(crop, pitch, ink.ratio)
		if lines = lineRows(crop, xs, ys, c.lines, pitch); lines == nil {
			return nil, ErrNoZone
		}
	}
	if !fitLines(lines, c.chars, xs, ys, crop.Rect.Dx(), pitch) {
		return nil, ErrNoZone
	}
	z := &Zone{Crop: crop, Lines: lines, Angle: c.angle, Pitch: found, CX: c.cx, CY: c.cy, view: v, found: cand, ink: ink}
	z.alts = periodAlternatives(z, xs, ys, pitch)
	for _, a := range append(z.alts, z) {
		a.fromCells(pitch / found)
	}
	return z, nil
}

// maxPitchError: a crop whose lines' spacing gives a pitch this much under
// the one it was cut at (down to half: less is no zone) is cut again
// (fitCells searches 12% either side).
// bench/mrz's TD1 cards at 1.1-1.5 px strokes on 5 MP frames were cut at
// 1.33 times their pitch and their cells fitted 11% long.
const maxPitchError = 0.1

// spacingPitch is the pitch the lines' spacing gives: their centres stand
// at least 1.67 pitches apart (4.23 mm at 2.54; mrztest prints that).
func spacingPitch(lines []Line) float64 {
	n := len(lines) - 1
	return (lines[n].Center - lines[0].Center) / float64(n) / 1.67
}

// fromCells sets the zone's pitch and centre in the photo from its lines'
// cells, which the crop (scale crop pixels per photo pixel, centred on the
// candidate) was cut to: the candidate's length, taken from the working
// copy, runs long when a card's edge stands within a pitch or two of the
// zone (7 % on a card whose zone was printed 2 mm right of its place),
// and the page placed around the zone with it.
func (z *Zone) fromCells(scale float64) {
	var pitch, centre float64
	for _, l := range z.Lines {
		pitch += l.Pitch
		centre += l.X0 + float64(l.Chars)*l.Pitch/2
	}
	n := float64(len(z.Lines))
	du := (centre/n - float64(z.Crop.Rect.Dx())/2) / scale
	sin, cos := math.Sincos(z.Angle * math.Pi / 180)
	z.Pitch, z.CX, z.CY = pitch/n/scale, z.CX+du*cos, z.CY+du*sin
}

// inkPoints are the crop's dark points (darkPoints over a pitch around
// each) less those in runs along a row of maxRun pitches or longer, or
// down a column of maxColRun or longer: print is strokes, at most a
// character or two wide when blurred and a capital high, while the page's
// edge and the desk beyond it, when the crop takes them in, darken whole
// rows (a page filling the frame: they outnumbered a zone line's ink and
// hid it from lineRows) or whole columns (a card's side edge a pitch from
// the zone: it joined the lines' ink and the cells were fitted too long).
func inkPoints(crop *image.Gray, pitch, ratio float64) (xs, ys []float64) {
	xs, ys = darkPoints(crop, int(pitch), 18, ratio)
	w, h := crop.Rect.Dx(), crop.Rect.Dy()
	dark := make([]bool, w*h)
	for i := range xs {
		dark[int(ys[i])*w+int(xs[i])] = true
	}
	drop := make([]bool, w*h)
	mark := func(at func(k int) int, n, long int) {
		for k := 0; k < n; {
			if !dark[at(k)] {
				k++
				continue
			}
			j := k
			for j < n && dark[at(j)] {
				j++
			}
			if j-k >= long {
				for ; k < j; k++ {
					drop[at(k)] = true
				}
			}
			k = j
		}
	}
	for y := range h {
		mark(func(k int) int { return y*w + k }, w, int(maxRun*pitch))
	}
	for x := range w {
		mark(func(k int) int { return k*w + x }, h, int(maxColRun*pitch))
	}
	n := 0
	for i := range xs {
		if !drop[int(ys[i])*w+int(xs[i])] {
			xs[n], ys[n] = xs[i], ys[i]
			n++
		}
	}
	return xs[:n], ys[:n]
}

// maxColRun: a run of dark points this many pitches tall is not print (a
// capital is about 0.75 pitch high, the lines 1.67 pitches apart).
const maxColRun = 2

// maxRun: a run of dark points this many pitches long is not print.
const maxRun = 3

// cut samples the zone, with a margin of characters all round, upright,
// its characters pitch pixels apart. A zone shrunk by more than 1.5 is
// sampled from an area-averaged copy, so thin strokes are not skipped.
// The view is where the crop's pixels lie in that copy (fine.go reads the
// copy's own pixels).
func cut(img *image.Gray, c candidate, found, pitch float64) (*image.Gray, view) {
	scale := pitch / found // crop pixels per photo pixel
	src := img
	if f := int(1 / scale / 1.5); f >= 2 {
		src = raster.Shrink(img, f)
		c = c.scaled(1 / float64(f))
		scale *= float64(f)
	}
	w := int((c.length + 4*found) * scale)   // two characters each side: the working copy may have cut the line short
	h := int((c.height + 1.2*found) * scale) // the lines are 1.67 pitches apart: no neighbour comes in
	a := c.angle * math.Pi / 180
	s, co := math.Sincos(a)
	hw, hh := float64(w)/2/scale, float64(h)/2/scale
	v := view{src: src, angle: a, k: 1 / scale, tx: c.cx - (hw*co - hh*s), ty: c.cy - (hw*s + hh*co)}
	return raster.Warp(src, w, h, raster.Affine(a, v.k, v.tx, v.ty), 255), v
}

// view places a crop in the image it was cut from: a crop pixel (x, y)
// lies at k·R(angle)·(x, y) + (tx, ty) there.
type view struct {
	src              *image.Gray
	angle, k, tx, ty float64
}

// toCrop is the crop point that the source point (x, y) shows.
func (v view) toCrop(x, y float64) (float64, float64) {
	s, c := math.Sincos(v.angle)
	x, y = x-v.tx, y-v.ty
	return (c*x + s*y) / v.k, (-s*x + c*y) / v.k
}

// lineRows finds the n text lines of the crop: rows dense in dark points,
// in bands about a capital high; n of them evenly spaced, top to bottom, each from its
// capitals' top to its baseline (the rows holding a quarter of the band's
// peak).
func lineRows(crop *image.Gray, xs, ys []float64, n int, pitch float64) []Line {
	h := crop.Rect.Dy()
	rows := make([]int, h)
	for _, y := range ys {
		rows[int(y)]++
	}
	peak := maxOf(rows)
	type span struct{ top, bottom, ink int }
	var bands []span
	for y := 0; y < h; {
		if float64(rows[y]) < 0.3*float64(peak) {
			y++
			continue
		}
		b := span{top: y}
		for y < h && float64(rows[y]) >= 0.3*float64(peak) {
			b.ink += rows[y]
			y++
		}
		b.bottom = y - 1
		// A zone line's ink is about a capital high (0.7 pitch, more when
		// blurred): thinner is the page's edge or a rule, thicker a
		// portrait or a stain.
		if h := float64(b.bottom - b.top + 1); h >= 0.4*pitch && h <= 2*pitch {
			bands = append(bands, b)
		}
	}
	if len(bands) < n {
		return nil
	}
	// Of more bands than lines, the n consecutive ones whose baselines
	// stand closest to the zone's spacing (1.67 pitches, 4.23 mm at 2.54):
	// the crop is centred on the zone, so what else came in (the page's
	// edge, a line of print) stands off it.
	if len(bands) > n {
		best, bestCost := 0, math.Inf(1)
		for i := 0; i+n <= len(bands); i++ {
			cost := 0.0
			for j := i + 1; j < i+n; j++ {
				cost += math.Abs(float64(bands[j].bottom-bands[j-1].bottom) - 1.67*pitch)
			}
			if cost < bestCost {
				best, bestCost = i, cost
			}
		}
		bands = bands[best : best+n]
	}
	lines := make([]Line, n)
	for i, b := range bands {
		// Widen to the rows holding a quarter of the band's peak.
		bp := maxOf(rows[b.top : b.bottom+1])
		top, bottom := b.top, b.bottom
		for top > 0 && float64(rows[top-1]) >= 0.25*float64(bp) {
			top--
		}
		for bottom < h-1 && float64(rows[bottom+1]) >= 0.25*float64(bp) {
			bottom++
		}
		var sum, weight float64
		for y := top; y <= bottom; y++ {
			sum += float64(y) * float64(rows[y])
			weight += float64(rows[y])
		}
		lines[i] = Line{Top: top, Bottom: bottom, Center: sum / weight}
	}
	return lines
}

// fitLines fits each line's cells (fitCells). A zone's lines share their
// cells (one font, one left margin, printed in one pass), so a line whose
// fit strays from the line with the widest ink, or finds none, takes that
// line's cells: blur can split a line's ink where a faint filler stands
// (its cluster then starts mid-line, and its cells ran past the crop) or
// leave too little of it to fit (measured on bench/mrz's 12 MP photos: two
// TD3 pages defocused by 3.3-3.5 px, refused before). False when no line
// fits.
func fitLines(lines []Line, chars int, xs, ys []float64, w int, pitch float64) bool {
	ref, widest := -1, 0
	for i := range lines {
		lines[i].Chars = chars
		if span, ok := fitCells(&lines[i], xs, ys, w, pitch); ok && span > widest {
			ref, widest = i, span
		} else if !ok {
			lines[i].Pitch = 0
		}
	}
	if ref < 0 {
		return false
	}
	r := lines[ref]
	for i := range lines {
		if l := &lines[i]; l.Pitch == 0 || math.Abs(l.X0-r.X0) > 0.5*r.Pitch {
			l.X0, l.Pitch = r.X0, r.Pitch
		}
	}
	return true
}

// fitCells finds the line's cells: the pitch (within 12% of the crop's)
// and left edge whose cell boundaries cross the least ink, the first and
// last boundaries bracketing the line's ink. span is the width of that
// ink, pixels.
func fitCells(l *Line, xs, ys []float64, w int, pitch float64) (span int, ok bool) {
	prof, left, right := lineInk(*l, xs, ys, w, pitch)
	if left < 0 || right-left < int(pitch)*l.Chars/2 {
		return 0, false
	}
	at := profileAt(prof)
	n := float64(l.Chars)
	best := math.Inf(1)
	// The last cell ends just past the ink; unless the line's last
	// characters are fillers too faint to count (a small, blurred zone):
	// then only the left edge and the pitch's range hold the fit.
	for _, slack := range []float64{0.6, 0.6 * n} {
		if !math.IsInf(best, 1) {
			break
		}
		fitWith(l, at, left, right, pitch, n, slack, &best)
	}
	return right - left, !math.IsInf(best, 1)
}

// lineInk is the line's ink profile (dark points per column of the
// line's rows) and its main cluster, left to right: inked columns, gaps
// under 1.2 pitches (the page's edge and stray marks beside it left out);
// left is -1 when there is none.
func lineInk(l Line, xs, ys []float64, w int, pitch float64) (prof []float64, left, right int) {
	prof = make([]float64, w+1)
	for i := range xs {
		if y := int(ys[i]); y >= l.Top && y <= l.Bottom {
			prof[int(xs[i])]++
		}
	}
	left, right, bestInk := -1, -1, 0.0
	start, end, ink := -1, -1<<30, 0.0
	for x := 0; x <= w; x++ {
		if x < w && prof[x] < 2 {
			continue
		}
		if x == w || float64(x-end) > 1.2*pitch {
			if start >= 0 && ink > bestInk {
				left, right, bestInk = start, end, ink
			}
			start, ink = x, 0
		}
		if x < w {
			end, ink = x, ink+prof[x]
		}
	}
	return prof, left, right
}

// profileAt samples a profile between its columns (0 beyond it).
func profileAt(prof []float64) func(float64) float64 {
	w := len(prof) - 1
	return func(x float64) float64 {
		if x < 0 || x >= float64(w) {
			return 0
		}
		i := int(x)
		f := x - float64(i)
		return prof[i]*(1-f) + prof[i+1]*f
	}
}

// fitWith searches the pitches and left edges whose last boundary falls
// within slack pitches past the ink's right edge.
func fitWith(l *Line, at func(float64) float64, left, right int, pitch, n, slack float64, best *float64) {
	for p := pitch * 0.88; p <= pitch*1.12; p += 0.02 {
		for x0 := float64(left) - 0.6*p; x0 <= float64(left); x0 += 0.25 {
			end := x0 + n*p
			if end < float64(right) || end > float64(right)+slack*p {
				continue
			}
			score := 0.0
			for i := 0.0; i <= n; i++ {
				score += at(x0 + i*p)
			}
			if score < *best {
				*best, l.X0, l.Pitch = score, x0, p
			}
		}
	}
}

func maxOf(a []int) int {
	m := 0
	for _, v := range a {
		m = max(m, v)
	}
	return m
}
