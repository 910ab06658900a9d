package card

import (
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// What makes four lines a card's outline.
const (
	// minArea is the least share of the working copy a candidate covers.
	minArea = 0.02
	// minRectAspect and maxRectAspect are loose bounds on the outline's
	// long side over its short one: the strict ID-1 test comes later, so
	// a card of another format is found and refused for its proportions.
	minRectAspect = 1.15
	maxRectAspect = 2.20
	// maxSkew bounds how far opposite sides may diverge (perspective) and
	// how far adjacent ones may stray from a right angle.
	maxSkew = 25 * math.Pi / 180
	// minSupport is the least share of a side's samples that must be
	// edge: print or table texture crossing a line does not make it an
	// edge. On the evaluation set (bench/robust) 0.6 accepted 20 wrong
	// outlines of 200 photos, 0.85 8 (and one side of four at 0.6 again
	// 12); the surround test (oneSurround) took that to 1. Glare hides
	// part of a side without counting against it (edgeProfile.support).
	minSupport = 0.85
	// minGappedSupport and gapClearSupport: a side of an outline inside
	// the photo below minSupport is still a side when it shows
	// minGappedSupport and, its longest stretch without edge left out
	// (gapSupport, the stretch in the side's middle half), gapClearSupport:
	// a light card whose side fades into a white table along one stretch.
	// The real upright card on white (testdata/cards white_vertical.jpg):
	// its right side 0.838, one run of 40 of 290 samples (0.48-0.60 of
	// the way, 4.6-8 levels across at ±2 px, under stepLow) and 4 and 2
	// beside it, 0.976 without it; its other sides 1.00. Found at 1.3%.
	// With the stretch anywhere on the side, one rendered photo (#216 with
	// the oval, PNG) was accepted 8.4% off: its sides 0.80-0.85 missed
	// their edge only towards one end, lines running on past a corner.
	// Within the middle half, the 944 rendered photos answer exactly as
	// without the rule (every corner).
	minGappedSupport = 0.8
	gapClearSupport  = 0.95
	// strongSupport is the support of a side seen clearly, end to end
	// but for a sample or two: outlines seen so all round rank first.
	strongSupport = 0.9
	// minFrameSupport is minSupport for the seen sides of an outline with
	// a side on the photo's edge: a card that fills the frame shows them
	// whole, a card's edge drawn on across the table does not.
	minFrameSupport = 0.85
	// frameDiscount is the share of its area an outline loses in the
	// ranking for each side on the photo's own edge (see rank).
	frameDiscount = 0.1
)

// A card that fills the frame has its outline on the photo's edges, where
// nothing shows whether card or table lies beyond. An outline with a side
// there is taken only when it covers at least fullFrameMin of the photo,
// has ID-1 proportions (AspectTolerance) and shows a portrait where ID-1
// puts it (hasPortrait). With all four sides there (a flat scan, a tight
// crop) the photo's own shape must be ID-1 within fullFrameAspect too: a
// 3:2 photo (5.4% off) of a table is not a card.
const (
	fullFrameMin    = 0.5
	fullFrameAspect = 0.04
	// cornerRadius is ID-1's corner radius over its long side (3.18 of
	// 85.60 mm); frameRunUp is the share of a side, beyond the rounding,
	// over which a side meeting the frame must show its edge: 0.13, as
	// the 0.02–0.15 this window was before the rounding was left out, so
	// a card ending a few percent of its side before the frame (a card
	// on a white border) is not taken as running off it.
	cornerRadius = 3.18 / 85.60
	frameRunUp   = 0.13
	// runOffMin is fullFrameMin for an outline with one side on the
	// photo's edge whose sides meeting it show their edge right up to
	// the frame, rounded corner's stretch included (runsOff): a hand-held
	// card running off the photo by 1–4% of its width, which shows no
	// side there (bench/robust: two cards covering 0.43 and 0.48 of the
	// photo, their corners 3.3% and 4.0% off when taken at the frame). A
	// card cut at an angle shows a corner inside the photo and its side
	// ends before the frame: without that test one such card, cut by 9%
	// of its width, was accepted.
	runOffMin = 0.4
)

// outline is a candidate: four lines (top, right, bottom, left in no
// particular orientation, cyclic) and their corners in working
// coordinates.
type outline struct {
	sides   [4]line
	corners [4]raster.Point
	support [4]float64 // share of edge samples; -1 for a side on the frame
	area    float64    // share of the working copy
	aspect  float64    // long over short, averaged over opposite sides
	score   float64
}

// frameSides counts the outline's sides on the photo's edges.
func (o outline) frameSides() int {
	n := 0
	for _, s := range o.support {
		if s < 0 {
			n++
		}
	}
	return n
}

// candidates builds every outline of two near-parallel pairs of lines
// that cross near right angles, within the photo, of card-like shape, and
// measures each side's edge support.
func (wk *work) candidates(lines []line) []outline {
	type pair struct{ a, b line }
	wk.profiles = make([]edgeProfile, len(lines))
	for i, l := range lines {
		if !l.frame {
			wk.profiles[i] = wk.profile(l)
		}
		lines[i].id = i
	}
	var pairs []pair
	minSep := 0.08 * float64(min(wk.w, wk.h))
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			a, b := lines[i], lines[j]
			if angleBetween(a, b) > maxSkew {
				continue
			}
			// Distance between the lines at the copy's centre.
			cx, cy := float64(wk.w)/2, float64(wk.h)/2
			da := cx*a.cos + cy*a.sin - a.rho
			db := cx*b.cos + cy*b.sin - b.rho
			if a.cos*b.cos+a.sin*b.sin < 0 { // opposite normals
				db = -db
			}
			if math.Abs(da-db) < minSep {
				continue
			}
			pairs = append(pairs, pair{a, b})
		}
	}
	var out []outline
	for i := range pairs {
		for j := i + 1; j < len(pairs); j++ {
			p, q := pairs[i], pairs[j]
			if math.Abs(angleBetween(p.a, q.a)-math.Pi/2) > maxSkew || math.Abs(angleBetween(p.b, q.b)-math.Pi/2) > maxSkew {
				continue
			}
			o, ok := wk.outlineOf([4]line{p.a, q.a, p.b, q.b})
			if ok {
				out = append(out, o)
			}
		}
	}
	return out
}

// outlineOf checks the shape of the quadrilateral the four lines (cyclic)
// enclose and measures its sides.
func (wk *work) outlineOf(sides [4]line) (outline, bool) {
	o := outline{sides: sides}
	slack := 0.03 * float64(max(wk.w, wk.h))
	for k := range 4 {
		x, y, ok := intersect(sides[(k+3)%4], sides[k])
		if !ok || x < -slack || y < -slack || x > float64(wk.w)+slack || y > float64(wk.h)+slack {
			return o, false
		}
		o.corners[k] = raster.Point{X: x, Y: y}
	}
	if !convex(o.corners) {
		return o, false
	}
	o.area = polygonArea(o.corners[:]) / float64(wk.w*wk.h)
	o.aspect = quadAspect(o.corners)
	if o.area < minArea || o.aspect < minRectAspect || o.aspect > maxRectAspect {
		return o, false
	}
	frames := 0
	for k := range 4 {
		if sides[k].frame {
			o.support[k] = -1
			frames++
		}
	}
	need := minSupport
	if frames > 0 {
		need = minFrameSupport
	}
	if frames == 3 { // a card cut by the frame on three sides shows no corner
		return o, false
	}
	for k := range 4 {
		if sides[k].frame {
			continue
		}
		a, b := o.corners[k], o.corners[(k+1)%4]
		p, l := &wk.profiles[sides[k].id], sides[k]
		if o.support[k] = p.support(l, a, b, 0.1, 0.9); o.support[k] < need &&
			(frames > 0 || o.support[k] < minGappedSupport || p.gapSupport(l, a, b) < gapClearSupport) {
			return o, false
		}
		// A side that meets the frame must show its edge up to it (from
		// where the card's rounded corner would end): a card that fills
		// the frame runs off it or ends just at it, a card lying inside
		// the photo shows its corner first. Without the rounding left out
		// (0.02 of the side on), a card filling a 16:9 frame's height
		// within 2 px showed 82% edge and its portrait column between two
		// accent lines was taken for it (bench/robust #119).
		r := cornerRadius * math.Max(dist(o.corners[0], o.corners[1]), dist(o.corners[1], o.corners[2])) / dist(a, b)
		if sides[(k+3)%4].frame && p.support(l, a, b, r, r+frameRunUp) < minSupport ||
			sides[(k+1)%4].frame && p.support(l, a, b, 1-r-frameRunUp, 1-r) < minSupport {
			return o, false
		}
	}
	return o, true
}

// outward is the unit normal of a→b pointing away from centre.
func outward(a, b, centre raster.Point) raster.Point {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	n := raster.Point{X: (b.Y - a.Y) / l, Y: -(b.X - a.X) / l}
	mx, my := (a.X+b.X)/2, (a.Y+b.Y)/2
	if (mx-centre.X)*n.X+(my-centre.Y)*n.Y < 0 {
		n = raster.Point{X: -n.X, Y: -n.Y}
	}
	return n
}

// convex reports whether the four points make a convex quadrilateral, in
// either winding.
func convex(p [4]raster.Point) bool {
	sign := 0.0
	for k := range 4 {
		a, b, c := p[k], p[(k+1)%4], p[(k+2)%4]
		cr := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		if cr == 0 || (sign != 0 && (cr > 0) != (sign > 0)) {
			return false
		}
		sign = cr
	}
	return true
}

// quadAspect is the longer pair of opposite sides over the shorter,
// each averaged.
func quadAspect(p [4]raster.Point) float64 {
	a := dist(p[0], p[1]) + dist(p[2], p[3])
	b := dist(p[1], p[2]) + dist(p[3], p[0])
	return math.Max(a, b) / math.Min(a, b)
}

// washedOut reports whether glare has saturated a colour: nothing shows
// there, card or table.
func washedOut(c [3]float32) bool { return min(c[0], c[1], c[2]) >= glareLevel-5 }
