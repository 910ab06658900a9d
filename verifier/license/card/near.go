package card

import (
	"math"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// nearCard finds a card as light as the table it lies on, within a few
// levels of it, whose outline shows only where print runs to its edge: a
// band along one side printed to the card's edge makes that side an edge
// (c) and the band's ends short stretches of the two sides across it (a
// and b); the rest of the card's outline is no step at all (bench/robust:
// light cards 2–5 levels from a white table, 0–13% of their sides edge).
// The unseen side is placed at ID-1's proportions from c (threeSided, as
// for a far card) and checked against the card's own content
// (nearAccept).
func (wk *work) nearCard(lines []line, fitEnds bool) ([4]raster.Point, bool) {
	accept := func(q [4]raster.Point, sides [4]line) bool {
		return wk.nearAccept(q, sides) && !wk.edgeBeyond(lines, q[3], q[2], centreOf(q), nearBeyond*dist(q[0], q[3]))
	}
	if q, ok := wk.largestThreeSided(lines, accept); ok || !fitEnds {
		return q, ok
	}
	// A band's end too short to be a line: its sides are fitted where
	// c's edge ends. The outline so placed is also fitted to the edge
	// all round (fittedAround): a card whose sides lie just beyond print
	// lines shows its edge there.
	var quad [4]raster.Point
	best := 0.0
	for _, c := range lines {
		if c.frame {
			continue
		}
		for _, ab := range wk.bandEnds(c) {
			for _, q := range wk.threeSided(ab[0], ab[1], c) {
				if area := polygonArea(q[:]); area > best && wk.tableIsStock(q) && accept(q, [4]line{c, ab[0], {}, ab[1]}) {
					best, quad = area, q
				}
				if o, ok := wk.fittedAround(q); ok && o.area*float64(wk.w*wk.h) > best {
					best, quad = o.area*float64(wk.w*wk.h), o.corners
				}
			}
		}
	}
	return quad, best > 0
}

// tableIsStock reports whether the table beyond c (q[0]→q[1]) is within
// nearStock of the card's stock: the sides fitted at a band's ends
// (bandEnds) are for a card as light as its table. Without it an
// accent-line card on white, whose table is farther than that from its
// stock, was taken 10.3% off from print's ends (bench/robust's PNG of
// #112).
func (wk *work) tableIsStock(q [4]raster.Point) bool {
	_, stock, ok := wk.cardStock(q)
	if !ok {
		return false
	}
	m, ok := wk.beyond(q[0], q[1], centreOf(q))
	return ok && colourDist(m, stock) < nearStock
}

// bandEnds returns the pairs of sides across c at the ends of its
// longest stretch of edge (gaps of up to 2 px; a fifth of the photo's
// short side or more), on either side of c, for c taken as a long and as
// a short side: each is fitted (fitSide) along nearRunUp of its length,
// from its corner's radius on. The corner lies a third of that radius
// past the stretch's end: the step test still sees most of the rounding
// (bench/robust #80: the stretch ended 2–5 px before the corners; taken a
// whole radius past it, 12 px, the fit started out of its ±4 px reach).
// A light card's band has its ends 25–40 working px long, too short for
// the line search (bench/robust #80, found 1.6% off).
func (wk *work) bandEnds(c line) [][2]line {
	p := &wk.profiles[c.id]
	i0, i1, start, last := 0, -1, -1, -10
	for i := 0; i+1 < len(p.hits); i++ {
		if p.hits[i+1] == p.hits[i] {
			continue
		}
		if i-last > 3 {
			start = i
		}
		last = i
		if last-start > i1-i0 {
			i0, i1 = start, last
		}
	}
	run := float64(i1-i0) * profileStep
	if run < 0.2*float64(min(wk.w, wk.h)) {
		return nil
	}
	at := func(t float64) raster.Point { return raster.Point{X: c.rho*c.cos - t*c.sin, Y: c.rho*c.sin + t*c.cos} }
	s0, s1 := p.s0+(float64(i0)+0.5)*profileStep, p.s0+(float64(i1)+0.5)*profileStep
	var out [][2]line
	for _, across := range []float64{1 / ID1Aspect, ID1Aspect} { // c long, c short
		long := max(1, 1/across) * run
		r := cornerRadius * long / (1 - 2*cornerRadius*max(1, across))
		span := (run + 2*r) * across
		for _, sign := range []float64{1, -1} {
			n := raster.Point{X: sign * c.cos, Y: sign * c.sin}
			var ends [2]line
			ok := true
			for e, t := range []float64{s0 - r/3, s1 + r/3} {
				corner := at(t)
				from := raster.Point{X: corner.X + r*n.X, Y: corner.Y + r*n.Y}
				to := raster.Point{X: corner.X + (r+nearRunUp*span)*n.X, Y: corner.Y + (r+nearRunUp*span)*n.Y}
				mid := at((s0 + s1) / 2)
				l, fit := wk.fitSide(from, to, raster.Point{X: mid.X + span/2*n.X, Y: mid.Y + span/2*n.Y})
				if !fit || math.Abs(angleBetween(l, c)-math.Pi/2) > maxSkew {
					ok = false
					break
				}
				l.id = len(wk.profiles)
				wk.profiles = append(wk.profiles, wk.profile(l))
				ends[e] = l
			}
			if ok {
				out = append(out, ends)
			}
		}
	}
	return out
}

// nearBeyond is how far beyond the unseen side, as a share of the sides
// across it, edgeBeyond looks for the card's edge: a card of another
// format (1.42:1, ID-2's proportions, against ID-1's 1.59) runs on 12%
// past where ID-1's proportions put its side.
const nearBeyond = 0.3

// edgeBeyond reports whether a line within enclosureSkew of the side
// a→b lies beyond it (away from centre), no farther than reach, and shows
// an edge (minSupport) along the stretch facing the side: the card's own
// edge, when the side was placed short of it (a card of another format).
func (wk *work) edgeBeyond(lines []line, a, b, centre raster.Point, reach float64) bool {
	n := outward(a, b, centre)
	side := line{cos: n.X, sin: n.Y}
	for _, l := range lines {
		if l.frame || angleBetween(l, side) > enclosureSkew {
			continue
		}
		da, okA := rayTo(l, a, n)
		db, okB := rayTo(l, b, n)
		if !okA || !okB || max(da, db) > reach {
			continue
		}
		pa := raster.Point{X: a.X + da*n.X, Y: a.Y + da*n.Y}
		pb := raster.Point{X: b.X + db*n.X, Y: b.Y + db*n.Y}
		if wk.profiles[l.id].support(l, pa, pb, 0.1, 0.9) >= minSupport {
			return true
		}
	}
	return false
}

// nearRunUp is the stretch of a and b, beyond the rounded corner at c,
// that must show its edge: the band's end. A light card's band runs 20%
// of the short side down a horizontal layout (cardtest's 110 of 540 px),
// 13% of the long side down a vertical one.
const nearRunUp = 0.08

// nearAccept checks a three-sided outline (corners q; sides c from q[0]
// to q[1], a from q[0] to q[3], b from q[1] to q[2]) as nearCard's card:
// large enough to be read (MinCoverage), c an edge all along
// (strongSupport) that ends at the corners, a and b edges next to c
// (nearRunUp) that do not run back past it (the ends of a band drawn
// across something larger do), a portrait at one short end and not a
// block of data lines, and the content fitting the outline
// (contentFits).
func (wk *work) nearAccept(q [4]raster.Point, sides [4]line) bool {
	if polygonArea(q[:]) < MinCoverage*float64(wk.w*wk.h) {
		return false
	}
	c, a, b := sides[0], sides[1], sides[3]
	pc := &wk.profiles[c.id]
	if pc.support(c, q[0], q[1], 0.1, 0.9) < strongSupport || pc.support(c, q[0], q[1], -0.4, -0.1) >= 0.5 || pc.support(c, q[0], q[1], 1.1, 1.4) >= 0.5 {
		return false
	}
	long := max(dist(q[0], q[1]), dist(q[1], q[2]))
	for _, s := range [2]struct {
		l        line
		from, to raster.Point
	}{{a, q[0], q[3]}, {b, q[1], q[2]}} {
		p := &wk.profiles[s.l.id]
		r := cornerRadius * long / dist(s.from, s.to)
		// On past the far corner (1.02–1.1 of the side: a card of
		// another format 12% longer shows its side there before its
		// rounded corner) the side shows no edge.
		if p.support(s.l, s.from, s.to, r, r+nearRunUp) < minSupport || p.support(s.l, s.from, s.to, -0.4, -0.05) >= 0.5 || p.support(s.l, s.from, s.to, 1.02, 1.1) >= 0.5 {
			return false
		}
	}
	toWork, stock, ok := wk.cardStock(q)
	if !ok || !wk.hasPortrait(toWork, stock) || wk.textBlock(outline{corners: q}) {
		return false
	}
	// Which of a and b show their edge on past the band: beyond those the
	// table need not be the card's colour.
	var seen [2]bool
	for i, s := range [2]struct {
		l        line
		from, to raster.Point
	}{{a, q[0], q[3]}, {b, q[1], q[2]}} {
		p := &wk.profiles[s.l.id]
		seen[i] = p.support(s.l, s.from, s.to, nearPastBand, 0.9) >= minSupport
	}
	return wk.contentFits(q, stock, seen)
}

// The content test (contentFits). Figures from bench/robust
// (2026-11-29) and 48 cards of other formats (1.25, 1.42, 1.9 and 2.1:1,
// every design, on white and light laminate).
const (
	// nearGap and nearStrip place the strips beyond each side: from 2% to
	// 12% of the sides across it out, past the card's blurred edge.
	nearGap, nearStrip = 0.02, 0.1
	// nearMargin is the card's margin inside a side, where its colour is
	// read next to the table: 4% of the sides across it (ID-1 portraits
	// start 3.5–4 mm from the edge).
	nearMargin = 0.04
	// nearPastBand is where, along a and b, the band has ended (20% of
	// the short side, 13% of the long one): the strips beyond a and b
	// start there, and a side seen from there to 90% of its length is
	// seen past the band.
	nearPastBand = 0.3
	// nearStock is how near the card's stock the table beyond an unseen
	// side must be (its median; the premise: no edge shows because there
	// is none to see), or else near the card's margin just inside it
	// (nearMargin), that margin being the stock under other light. The
	// found light cards measured 2–17 levels from the stock (17: a table
	// clipped at 254 beside a stock of 241–247 under a light ramp); a
	// vertical light card on a white border 23 beyond its side, its
	// margin there lit as the table (bench/robust's PNG of #217, found
	// 3.1% off by the margin's test, its portrait's block accepted wrong
	// without). A card of another format cut short by the placed side
	// has its own stock beyond it, which edgeBeyond and the run-on tests
	// catch where its edge shows. Without the margin's colour near the
	// stock, a dark footer band inside the placed side passed it
	// (bench/robust's PNG of #37, 5.1% off). The margin may also be the
	// stock less lit, the same colour (litAlike): a vertical light card
	// on a white border under a ramp had its margin (236, 237, 238) 24
	// levels from its stock (250, 251, 253) at the ramp's dark end, 5
	// from the table beyond, and its portrait's block was accepted wrong
	// (TestAnalyzeFrontNearLightCard, seed 604).
	nearStock = 20
	// nearReachMM is how far inside the placed side, in mm of an ID-1
	// card, print must show (minPrintReach of the stretch from 1 mm to
	// there): the light card's data lines end 6 mm from its edge, the
	// vertical layout's 3.6 mm. A 1.42:1 card on white, its far short end
	// in the table's glare, was taken at ID-1's proportions from its
	// other end, 8.6 mm past its print, while this was a share of the
	// outline (15%, 13 mm); the near path then accepted 3 of the 48
	// cards of other formats, now none.
	nearReachMM = 7.5
	// maxPrintBeyond is the share of a strip beyond the outline that may
	// differ from the strip's own median by portraitDiff: print of a
	// larger card, where the outline cuts it short. Set, not tuned: the
	// tables measured carry no print, and a card's data lines fill a
	// fifth of a strip across them.
	maxPrintBeyond = 0.02
	// minPrintReach is the least share of that stretch that is print:
	// the found light cards measured 0.06–0.19.
	minPrintReach = 0.05
)

// contentFits reports whether the card's content puts its unseen side
// where ID-1's proportions did: one plain surface all round the outline
// (each strip beyond a side one colour but for maxPrintBeyond, the strips
// one surface), so the card is not cut short; and print inside the
// unseen side (minPrintReach), so it does not run on past its print.
func (wk *work) contentFits(q [4]raster.Point, stock [3]float32, seen [2]bool) bool {
	sample, ok := wk.quadSampler(q)
	if !ok {
		return false
	}
	g, w := nearGap, nearStrip
	strips := [][][3]float32{
		sample(0.05, 0.95, -g-w, -g),        // beyond c
		sample(0.05, 0.95, 1+g, 1+g+w),      // beyond the unseen side
		sample(-g-w, -g, nearPastBand, 1),   // beyond a, past its band
		sample(1+g, 1+g+w, nearPastBand, 1), // beyond b
	}
	insides := [][][3]float32{
		nil,
		sample(0.05, 0.95, 1-nearMargin, 1-nearMargin/4),
		sample(nearMargin/4, nearMargin, nearPastBand, 1),
		sample(1-nearMargin, 1-nearMargin/4, nearPastBand, 1),
	}
	var meds [][3]float32
	for i, st := range strips {
		m, ok := median(st)
		if !ok || printShare(st, m) > maxPrintBeyond {
			return false
		}
		// Where no edge shows, the card is the table's colour there:
		// elsewhere an unseen side is a side not there.
		if unseen := i == 1 || i >= 2 && !seen[i-2]; unseen && colourDist(m, stock) >= nearStock {
			if in, ok := median(insides[i]); !ok || colourDist(m, in) >= nearStock || colourDist(in, stock) >= nearStock && !litAlike(in, stock) {
				return false
			}
		}
		meds = append(meds, m)
	}
	for i := range meds {
		for j := i + 1; j < len(meds); j++ {
			if !oneSurface(meds[i], meds[j]) {
				return false
			}
		}
	}
	extent := 53.98 // mm from c to the unseen side: c a long side
	if dist(q[0], q[1]) < dist(q[0], q[3]) {
		extent = 85.60
	}
	// Print is neither the stock nor the table beyond the placed side: a
	// side placed past the card's end has the table inside it (a 1.42:1
	// card on light laminate, 48 levels from its stock, was so taken
	// once the margin's test let its far side lie on the table).
	var print [][3]float32
	for _, col := range sample(0.05, 0.95, 1-nearReachMM/extent, 1-1/extent) {
		if colourDist(col, meds[1]) >= portraitDiff {
			print = append(print, col)
		}
	}
	n := 6 * 24
	return float64(len(print))*printShare(print, stock) >= minPrintReach*float64(n)
}

// quadSampler returns a sampler of the quadrilateral q's unit square
// (q[0] at (0, 0), q[1] at (1, 0), q[3] at (0, 1)): the colours on a 24 ×
// 6 grid from s0 to s1 along q[0]→q[1] and t0 to t1 along q[0]→q[3],
// leaving out those off the photo; ok false when q maps no square.
func (wk *work) quadSampler(q [4]raster.Point) (func(s0, s1, t0, t1 float64) [][3]float32, bool) {
	unit, err := raster.FromQuad([4]raster.Point{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}, q)
	if err != nil {
		return nil, false
	}
	return func(s0, s1, t0, t1 float64) [][3]float32 {
		var out [][3]float32
		for i := range 24 {
			for j := range 6 {
				s, t := s0+(s1-s0)*(float64(i)+0.5)/24, t0+(t1-t0)*(float64(j)+0.5)/6
				if col, ok := wk.colour(unit.Apply(s, t)); ok {
					out = append(out, col)
				}
			}
		}
		return out
	}, true
}

// printShare is the share of cols at portraitDiff or more from ref.
func printShare(cols [][3]float32, ref [3]float32) float64 {
	n := 0
	for _, c := range cols {
		if colourDist(c, ref) >= portraitDiff {
			n++
		}
	}
	return float64(n) / float64(max(len(cols), 1))
}

// litAlike reports whether a and b can be one colour under other light
// (sameLitSurface, or one clipped at saturation: clippedLitSurface).
func litAlike(a, b [3]float32) bool {
	return sameLitSurface(a, b) || clippedLitSurface(a, b) || clippedLitSurface(b, a)
}

// fittedAround fits all four sides of q (a band's end's outline, its
// fourth side placed at ID-1's proportions) to the edge, each over its
// whole length, and takes the outline they enclose when it passes the
// four-sided search's tests (outlineOf, accept) at ID-1's proportions:
// a card whose sides lie a few px beyond print lines of the same
// direction, which the line search takes instead (bench/robust #112).
// The placed side is first slid along the two sides across it to where
// it shows the most edge.
func (wk *work) fittedAround(q [4]raster.Point) (outline, bool) {
	a, b := q[3], q[2]
	bestS := 0.0
	for s, n := placedFrom, dist(q[0], q[3]); s <= placedTo; s += 1 / n {
		p3 := raster.Point{X: q[0].X + s*(a.X-q[0].X), Y: q[0].Y + s*(a.Y-q[0].Y)}
		p2 := raster.Point{X: q[1].X + s*(b.X-q[1].X), Y: q[1].Y + s*(b.Y-q[1].Y)}
		if !wk.inside([4]raster.Point{p2, p3, p2, p3}) {
			break
		}
		if v := wk.segmentSupport(p3, p2); v >= bestS {
			bestS, q[3], q[2] = v, p3, p2
		}
	}
	var sides [4]line
	for range fitRounds {
		centre := centreOf(q)
		for k := range 4 {
			l, ok := wk.fitSide(q[k], q[(k+1)%4], centre)
			if !ok {
				return outline{}, false
			}
			sides[k] = l
		}
		for k := range 4 {
			x, y, ok := intersect(sides[(k+3)%4], sides[k])
			if !ok {
				return outline{}, false
			}
			q[k] = raster.Point{X: x, Y: y}
		}
		if !convex(q) {
			return outline{}, false
		}
	}
	for k := range sides {
		sides[k].id = len(wk.profiles)
		wk.profiles = append(wk.profiles, wk.profile(sides[k]))
	}
	o, ok := wk.outlineOf(sides)
	if !ok || min(o.support[0], o.support[1], o.support[2], o.support[3]) < fittedSupport || math.Abs(o.aspect/ID1Aspect-1) > AspectTolerance || !wk.accept(o) {
		return outline{}, false
	}
	return o, true
}

// fitRounds is how many times fittedAround fits the four sides, each
// round moving a side by fitSide's reach (4 px) at most (not varied).
const fitRounds = 4

// placedFrom and placedTo bound where fittedAround looks for the placed
// side, as shares of its distance from the side across: bench/robust
// #112's top lies at 1.13 of it (the card reads 1.72:1 in the working
// copy, its perspective).
const placedFrom, placedTo = 0.85, 1.3

// fittedSupport is the least share of edge along each side of a fitted
// outline. With outlineOf's 0.85 alone, 12 of bench/robust's 944 photos
// changed answer: #112's four found (every side 0.98–1.00), #037's and
// #115's PNGs found right (0.92–0.93, 0.86–0.88), #200's four and #050's
// PNG with the oval accepted 51–66% off (print inside the card, sides
// 0.87–0.91). At 0.95 only #112's change.
const fittedSupport = 0.95
