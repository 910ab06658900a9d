package card

import (
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// insideCard reports whether best is print inside a larger card that runs
// off the photo. Such a card is not taken (a corner is cut, or too little
// of it shows), and a card-shaped block inside it — the portrait's column
// between two accent lines, a portrait with its grey ground — has the
// card's own ground all round, one surface as a table would be
// (bench/robust: two such blocks accepted, 41% and 45% of the card's
// width off). So the block's surroundings are followed out to the next
// edge beyond each side (enclosure): when that makes a region with a side
// on the photo's edge and two or more edges of its own, whose ground is
// what lies beyond every side of best and which shows a portrait at one
// end, best is inside a card. A card on a table has the table around it;
// the region the table's edges or the frame make around it has no
// portrait at its ends.
func (wk *work) insideCard(lines []line, best outline) bool {
	centre := centreOf(best.corners)
	var around [4][3]float32
	for k := range 4 {
		if best.support[k] < 0 {
			return false // a frame-sided outline passed frameIsCard
		}
		m, ok := wk.beyond(best.corners[k], best.corners[(k+1)%4], centre)
		if !ok {
			return false
		}
		around[k] = m
	}
	encl, off, ok := wk.enclosure(lines, best, around)
	if !ok || !off {
		return false
	}
	toWork, stock, ok := wk.cardStock(encl)
	if !ok {
		return false
	}
	for _, m := range around {
		if !oneSurface(m, stock) {
			return false
		}
	}
	return wk.hasPortrait(toWork, stock)
}

// enclosureSkew is how far a line beyond a side of best may turn from it
// to bound the region around best (enclosure): 10° for an edge in the
// photo, maxSkew for the photo's own edge (the card may lie at a slant to
// the frame).
const enclosureSkew = 10 * math.Pi / 180

// enclosureFar is how far beyond an edge (working pixels) the colour
// must still differ from the ground for the edge to end it: a row of
// text bars, 6–13 px tall in bench/robust's working copies, shows the
// ground again there but for the tallest, whose gaps strongSupport
// leaves out.
const enclosureFar = 12

// enclosure is the quadrilateral of the nearest lines beyond best's
// sides that bound what lies around it: for each side, the nearest line
// beyond both its ends, roughly parallel, that is the photo's edge or
// shows an edge along the whole stretch facing the side (strongSupport:
// a row of text bars shows gaps) with the colour beyond the side just
// inside it (one surface, oneSurface) and another colour beyond it, 3 px
// and enclosureFar out. ok false when a side finds no such line; off
// reports whether it runs off the photo: a side on the photo's edge or a
// corner beyond it.
func (wk *work) enclosure(lines []line, best outline, around [4][3]float32) (q [4]raster.Point, off, ok bool) {
	centre := centreOf(best.corners)
	var sides [4]line
	frames := 0
	for k := range 4 {
		a, b := best.corners[k], best.corners[(k+1)%4]
		n := outward(a, b, centre)
		nearest := math.Inf(1)
		for _, l := range lines {
			skew := angleBetween(l, best.sides[k])
			if skew > maxSkew || !l.frame && skew > enclosureSkew {
				continue
			}
			da, okA := rayTo(l, a, n)
			db, okB := rayTo(l, b, n)
			if !okA || !okB || min(da, db) < 3 || max(da, db) >= nearest {
				continue
			}
			pa := raster.Point{X: a.X + da*n.X, Y: a.Y + da*n.Y}
			pb := raster.Point{X: b.X + db*n.X, Y: b.Y + db*n.Y}
			if !l.frame {
				cs := wk.acrossAt(pa, pb, centre, 3, 0.1, 0.9, 12)
				in, ok1 := median(colours(cs, true))
				out, ok2 := median(colours(cs, false))
				far, ok3 := median(colours(wk.acrossAt(pa, pb, centre, enclosureFar, 0.1, 0.9, 12), false))
				if !ok1 || !ok2 || !ok3 || !oneSurface(in, around[k]) || oneSurface(out, around[k]) || oneSurface(far, around[k]) {
					continue
				}
			}
			if !l.frame && wk.profiles[l.id].support(l, pa, pb, 0, 1) < strongSupport {
				continue
			}
			nearest, sides[k] = max(da, db), l
		}
		if math.IsInf(nearest, 1) {
			return q, false, false
		}
		if sides[k].frame {
			frames++
		}
	}
	if frames > 2 {
		return q, false, false // the photo's edges all round: a table
	}
	off = frames > 0
	// The region may run off the photo past a corner (a card cut at a
	// slant), but not without end.
	w, h := float64(wk.w), float64(wk.h)
	for k := range 4 {
		x, y, ok := intersect(sides[(k+3)%4], sides[k])
		if !ok || x < -w || y < -h || x > 2*w || y > 2*h {
			return q, false, false
		}
		q[k] = raster.Point{X: x, Y: y}
		off = off || x < -1 || y < -1 || x > w+1 || y > h+1
	}
	return q, off, convex(q)
}

// rayTo is how far from p along the unit direction n the line l lies; ok
// false when the ray runs along it or away from it.
func rayTo(l line, p, n raster.Point) (float64, bool) {
	den := n.X*l.cos + n.Y*l.sin
	if math.Abs(den) < 1e-6 {
		return 0, false
	}
	d := (l.rho - p.X*l.cos - p.Y*l.sin) / den
	return d, d > 0
}

// colours are the crossings' inside (in) or outside colours.
func colours(cs []crossing, in bool) [][3]float32 {
	out := make([][3]float32, len(cs))
	for i, c := range cs {
		out[i] = c.out
		if in {
			out[i] = c.in
		}
	}
	return out
}
