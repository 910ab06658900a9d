package reader

import (
	"image"
	"iter"
	"math"
	"slices"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// MatchPitch is the character pitch, in pixels, the glyph matcher reads
// the straightened zone at: OCR-B's strokes are then about 2 px wide, and
// a zone line 44 × 16 px, cheap to match.
const MatchPitch = 16

// Zone is the zone straightened: Crop upright at the requested pitch, and
// each line's place in it.
type Zone struct {
	Crop  *image.Gray
	Lines []Line
	// Angle is the zone's turn in the photo, degrees; Pitch the character
	// pitch found in the photo, pixels.
	Angle, Pitch float64
	// CX and CY are the centre of the zone's ink in the photo, pixels:
	// with Angle and Pitch they place the page around it (the format fixes
	// where the zone sits on the page).
	CX, CY float64
	view   view // where Crop was cut from
	// found and ink are the search's candidate the zone was straightened
	// from and the ink pass that found it (ReadUpsideDown).
	found candidate
	ink   inkPass
	alts  []*Zone // the zone laid out by its lines' period (period.go)
}

// Line is one zone line in the crop: the rows its ink covers and the
// ink's centre row (the middle of its capitals), the left edge of its
// first cell and the pitch of its cells.
type Line struct {
	Top, Bottom int
	Center      float64
	X0, Pitch   float64
	Chars       int
}

// The search: the zone's turn within ±maxAngle, first on a working copy
// about workWidth wide, then on one twice as fine when the first finds no
// zone (a page far from the camera: its zone's pitch falls under 4 px).
const (
	maxAngle  = 12.0
	workWidth = 1000
)

// Zones yields the zones found on working copies of img about 1000, 500,
// 250, 2000 and 4000 px wide, in that order, first with sharp print's
// threshold and then again with blurred print's (inkPasses): a zone's
// pitch on the working copy must fall between 4 px (finer, the characters merge) and about 12
// px (wider, the marks of a line no longer cluster, maxGap), and a page
// filling a quarter to all of a frame puts it between 5 and 32 px at 1000
// (a TD3 zone) or up to 45 (TD1). The 4000 px copy is a 12 MP frame
// itself: a page at a tenth of it, strokes of 1-1.5 px, has a pitch of
// 7-11 px there and 4-5 at 2000, where its lines merged into one band
// (bench/mrz). Each zone is followed by the same zone laid out by its
// lines' period where that differs from the fit (period.go). A reader
// tries them in turn until one reads.
func Zones(img *image.Gray, pitch float64) iter.Seq2[*Zone, error] {
	return func(yield func(*Zone, error) bool) {
		if err := checkSize(img); err != nil {
			yield(nil, err)
			return
		}
		img = atOrigin(img)
		for _, ink := range inkPasses {
			for _, width := range []int{workWidth, workWidth / 2, workWidth / 4, 2 * workWidth, 4 * workWidth} {
				k := math.Min(1, float64(width)/float64(img.Rect.Dx()))
				work := img
				if k < 1 {
					work = raster.Resize(img, int(float64(img.Rect.Dx())*k), int(float64(img.Rect.Dy())*k))
				}
				cands := findZones(work, ink)
				if len(cands) == 0 && !yield(nil, ErrNoZone) {
					return
				}
				for _, c := range cands {
					z, err := straighten(img, c.scaled(1/k), pitch, ink)
					if !yieldWithAlternatives(z, err, yield) {
						return
					}
				}
				if k == 1 {
					break
				}
			}
		}
	}
}

// yieldWithAlternatives yields a zone straightened (or straighten's
// error), then the same zone with its cells laid out by the lines' period,
// when the ink's ends misled the fit; false when yield stopped.
func yieldWithAlternatives(z *Zone, err error, yield func(*Zone, error) bool) bool {
	if !yield(z, err) {
		return false
	}
	for _, alt := range z.byPeriod() {
		if !yield(alt, nil) {
			return false
		}
	}
	return true
}

// inkPass is how dark print must be to count (darkPoints: under ratio of
// its neighbourhood's mean), and how many rows a zone line's band must
// span on the working copy.
type inkPass struct {
	ratio   float64
	minRows float64 // v1-v0 of a band: 1 is two rows
}

// inkPasses: sharp print first, as the reader was calibrated (real
// pictures: 19 of 31 read by it alone), then blurred print. A zone defocused
// by more than its stroke (σ 1-2 px on strokes of 1-1.5 px, bench/mrz)
// never gets a fifth darker than its neighbourhood except at a few
// crossings: on the working copies its lines kept too few marks, or kept
// one row of them, and were not found; on the crop its strokes broke into
// clusters, so a line's cells were fitted from mid-line and ran past the
// crop (bench/mrz's two small stroke bands: of the 81 photos refused, 39
// found no zone and 13 ran past the crop; with the second pass, 1 of the
// 90 refused ran past it and every other was a cell too close to call).
// A tenth darker counts then, and one-row bands. Only the photos the first
// pass does not read meet the second: it costs a refused photo a second
// search (CPU median 500-630 ms for those defocused past a stroke); the
// first pass is the search as it was.
var inkPasses = []inkPass{{ratio: 0.8, minRows: 1}, {ratio: 0.9, minRows: 0}}

// candidate is a zone found on a working copy: its centre, turn, size
// along and across its lines, and how many lines of how many characters.
type candidate struct {
	cx, cy, angle, length, height float64
	lines, chars                  int
}

func (c candidate) scaled(s float64) candidate {
	c.cx, c.cy, c.length, c.height = c.cx*s, c.cy*s, c.length*s, c.height*s
	return c
}

// findZones: the dark points of the working copy; the turn at which their
// rows are sharpest; the text lines at that turn (rows of many separate
// marks); the bottom-most two or three long lines of equal height.
func findZones(work *image.Gray, ink inkPass) []candidate {
	xs, ys := darkPoints(work, 12, 18, ink.ratio)
	if len(xs) < 200 {
		return nil
	}
	angle := sharpestAngle(xs, ys, -maxAngle, maxAngle, 0.5)
	angle = sharpestAngle(xs, ys, angle-0.5, angle+0.5, 0.1)
	return pickZones(textBands(xs, ys, angle), angle, ink.minRows)
}

// darkPoints lists the pixels darker than ratio of their (2r+1)²
// neighbourhood's mean and by at least minDiff levels: print, not paper,
// whatever the light across the frame.
func darkPoints(g *image.Gray, r, minDiff int, ratio float64) (xs, ys []float64) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	integ := make([]int64, (w+1)*(h+1))
	for y := 0; y < h; y++ {
		var row int64
		for x := 0; x < w; x++ {
			row += int64(g.Pix[y*g.Stride+x])
			integ[(y+1)*(w+1)+x+1] = integ[y*(w+1)+x+1] + row
		}
	}
	for y := 0; y < h; y++ {
		y0, y1 := max(0, y-r), min(h, y+r+1)
		for x := 0; x < w; x++ {
			x0, x1 := max(0, x-r), min(w, x+r+1)
			sum := integ[y1*(w+1)+x1] - integ[y0*(w+1)+x1] - integ[y1*(w+1)+x0] + integ[y0*(w+1)+x0]
			mean := float64(sum) / float64((x1-x0)*(y1-y0))
			v := float64(g.Pix[y*g.Stride+x])
			if v < mean*ratio && mean-v >= float64(minDiff) {
				xs, ys = append(xs, float64(x)), append(ys, float64(y))
			}
		}
	}
	return xs, ys
}

// sharpestAngle is the turn, in degrees from lo to hi by step, at which the
// points' projection across the lines is most concentrated (sum of squared
// row counts): text lines then fall into few rows.
func sharpestAngle(xs, ys []float64, lo, hi, step float64) float64 {
	maxX, maxY := 0.0, 0.0
	for i := range xs {
		maxX, maxY = math.Max(maxX, xs[i]), math.Max(maxY, ys[i])
	}
	n := int(maxX+maxY) + 3
	bins := make([]int32, 2*n)
	best, bestScore := lo, -1.0
	for a := lo; a <= hi+1e-9; a += step {
		s, c := math.Sincos(a * math.Pi / 180)
		clear(bins)
		for i := range xs {
			bins[int(ys[i]*c-xs[i]*s)+n]++
		}
		score := 0.0
		for _, b := range bins {
			score += float64(b) * float64(b)
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// band is a text line at the found turn: rows v0..v1 (across), the marks'
// extent u0..u1 (along) and how many separate marks a row holds (median).
type band struct {
	v0, v1, u0, u1 float64
	marks          int
}

// textBands straightens the points by angle into a bitmap and cuts it into
// rows holding many separate marks: text, not edges (one long mark) nor
// the guilloche (few).
func textBands(xs, ys []float64, angle float64) []band {
	s, c := math.Sincos(angle * math.Pi / 180)
	minU, minV, maxU, maxV := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	fu, fv := make([]float64, len(xs)), make([]float64, len(xs))
	for i := range xs {
		fu[i], fv[i] = xs[i]*c+ys[i]*s, ys[i]*c-xs[i]*s
		minU, maxU, minV, maxV = math.Min(minU, fu[i]), math.Max(maxU, fu[i]), math.Min(minV, fv[i]), math.Max(maxV, fv[i])
	}
	w, h := int(math.Round(maxU-minU))+1, int(math.Round(maxV-minV))+1
	bits := make([]bool, w*h)
	for i := range fu {
		bits[int(math.Round(fv[i]-minV))*w+int(math.Round(fu[i]-minU))] = true
	}
	rows := make([]rowInfo, h)
	for v := 0; v < h; v++ {
		rows[v] = marksOf(bits[v*w : (v+1)*w])
	}
	// Rows are grouped with their neighbours two either side (a line's
	// middle rows, through '<' and bars, hold fewer marks).
	const reach = 2
	dil := make([]int, h)
	for v := range rows {
		for d := -reach; d <= reach; d++ {
			if v+d >= 0 && v+d < h {
				dil[v] = max(dil[v], rows[v+d].marks)
			}
		}
	}
	var out []band
	for v := 0; v < h; {
		if dil[v] < minMarks {
			v++
			continue
		}
		start := v
		for v < h && dil[v] >= minMarks {
			v++
		}
		// The marks of the band's own rows (without the reach either
		// side), the upper quartile: a thin line's ink covers a few rows.
		var marks []int
		for y := start + reach; y < v-reach; y++ {
			marks = append(marks, rows[y].marks)
		}
		if len(marks) == 0 {
			marks = append(marks, 0)
		}
		slices.Sort(marks)
		// The band's extent: its rows' marks, clustered as one row's are.
		union := make([]bool, w)
		for y := start; y < v; y++ {
			for u, b := range bits[y*w : (y+1)*w] {
				union[u] = union[u] || b
			}
		}
		r := marksOf(union)
		out = append(out, band{v0: float64(start+reach) + minV, v1: float64(v-1-reach) + minV,
			u0: float64(r.first) + minU, u1: float64(r.last) + minU, marks: marks[len(marks)*3/4]})
	}
	return out
}

type rowInfo struct{ marks, first, last int }

// marksOf counts the marks of a row of bits (runs, gaps of one bit
// bridged: the rotation's rounding leaves holes) in its main cluster: the
// marks closer than maxGap to each other holding the most, so the page's
// edge or a stray mark beside the line counts neither in its marks nor in
// its extent.
func marksOf(line []bool) rowInfo {
	var best, cur rowInfo
	cur.first, best.first = -1, -1
	lastEnd := -1 << 30
	for u := 0; u < len(line); u++ {
		if !line[u] {
			continue
		}
		if u-lastEnd > maxGap {
			if cur.marks > best.marks {
				best = cur
			}
			cur = rowInfo{first: u}
		}
		if u-lastEnd > 2 {
			cur.marks++
		}
		cur.last, lastEnd = u, u
	}
	if cur.marks > best.marks {
		best = cur
	}
	return best
}

// maxGap: the widest gap, in working pixels, inside a zone line's cluster
// of marks. Characters stand a third of a pitch apart; the page's margin
// beside the zone is about two pitches (TD1's 4.7 mm at 2.54 mm); a pitch
// on the working copy is 4-20 px.
const maxGap = 14

// minMarks: a zone line of 30 characters shows at least this many marks in
// its middle rows (each character one or two, '<' one).
const minMarks = 18

// pickZones: runs of two or three bands of the same height and length,
// each nearly as long as the longest band (the zone spans the page), from
// the bottom up: three make a TD1 zone, two a TD3. A run starts at each of
// the three bottom-most long bands (the page's bottom edge against the
// desk can pass for a line below the zone), bottom first. A band must be
// minRows+1 rows high: a small zone's line, defocused, keeps only its middle
// rows' marks (bench/mrz: a TD3 page at 28 % of a 12 MP frame, σ 3.3 px,
// its upper line two rows on the 1000 px copy, was not found; blurred
// print's pass takes one row).
func pickZones(bands []band, angle, minRows float64) []candidate {
	var lines []band
	for _, b := range bands {
		if b.marks >= minMarks && b.v1-b.v0 >= minRows {
			lines = append(lines, b)
		}
	}
	longest := 0.0
	for _, b := range lines {
		longest = math.Max(longest, b.u1-b.u0)
	}
	long := func(b band) bool { return b.u1-b.u0 >= 0.8*longest }
	var out []candidate
	starts := 0
	for first := len(lines) - 1; first >= 0 && starts < 3; first-- {
		if !long(lines[first]) {
			continue
		}
		starts++
		zone := []band{lines[first]}
		for i := first - 1; i >= 0 && len(zone) < 3; i-- {
			b, last := lines[i], zone[len(zone)-1]
			h, lh := b.v1-b.v0+1, last.v1-last.v0+1
			gap := last.v0 - b.v1
			// Baselines are 1.67 pitches apart (4.23 mm at 2.54): the gap
			// between bands, about one pitch, stays under 2.5 pitches
			// of a 44-character line, 1.7 of a 30-character one.
			if !long(b) || math.Abs(h-lh) > 0.5*lh || gap > 2.5*(last.u1-last.u0)/44 || math.Abs((b.u1-b.u0)-(last.u1-last.u0)) > 0.12*(last.u1-last.u0) {
				break
			}
			zone = append(zone, b)
		}
		if len(zone) >= 2 {
			out = append(out, zoneOf(zone, angle))
		}
	}
	return out
}

// zoneOf is the candidate the bands (bottom first) make.
func zoneOf(zone []band, angle float64) candidate {
	top, bottom := zone[len(zone)-1], zone[0]
	u0, u1 := math.Inf(1), math.Inf(-1)
	for _, b := range zone {
		u0, u1 = math.Min(u0, b.u0), math.Max(u1, b.u1)
	}
	chars := 44
	if len(zone) == 3 {
		chars = 30
	}
	u, v := (u0+u1)/2, (top.v0+bottom.v1)/2
	s, c := math.Sincos(angle * math.Pi / 180)
	return candidate{cx: u*c - v*s, cy: u*s + v*c, angle: angle, length: u1 - u0 + 1,
		height: bottom.v1 - top.v0 + 1, lines: len(zone), chars: chars}
}

// atOrigin is img with its bounds at the origin (raster's convention).
func atOrigin(img *image.Gray) *image.Gray {
	if img.Rect.Min == (image.Point{}) {
		return img
	}
	return &image.Gray{Pix: img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y):], Stride: img.Stride,
		Rect: image.Rect(0, 0, img.Rect.Dx(), img.Rect.Dy())}
}
