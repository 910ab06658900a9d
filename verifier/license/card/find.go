package card

import (
	"fmt"
	"image"
	"math"
	"sort"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// ErrUnsureOutline means lines that could be a card were found but none
// makes an outline with edges all round (or, at the photo's border, a
// portrait where ID-1 puts it): the photo is refused rather than a wrong
// quadrilateral warped. It is an ErrNoCard.
var ErrUnsureOutline = fmt.Errorf("%w: no outline found with confidence", ErrNoCard)

// findQuad returns the card's corners in photo coordinates (pixel edges at
// integers, so the photo spans 0..width): top-left, top-right,
// bottom-right, bottom-left with the long side on top.
//
// The card is told from the table by its edges, in colour: the longest
// straight edges of the colour gradient (houghLines) are paired into
// quadrilaterals of card-like shape (candidates), and each side is scored
// by how much of it shows a step in colour from inside to outside
// (edgeProfile.support), so a card as bright as the table but of another colour,
// or a dark band against a dark table, still has its edge. The photo's own
// edges are candidate sides too, for a card that fills the frame, under
// the full-frame tests (fullFrameMin). Among the outlines with every side
// supported, the best has the most edge, then the largest area (the card's
// own edge beats a band's or a portrait frame's inside it) and proportions
// nearest ID-1; its sides are then fitted to the edge (refine). An
// outline with one side on print just inside the card's edge (a band, an
// accent line) is moved out to that edge (acceptPastPrint), and so is
// the winner's side on a band whose thin margin hid it (widenPastPrint).
// Where no outline passes, one seen all round that fails only the
// surround test is taken when no side runs on past its corners, the
// card lying across surfaces of several colours (acceptBusySurround). A winner
// with a side running on through a corner the other side stops short of
// (teeCorner) or with sides running on past two corners (runsOnTwice),
// or that is print inside a larger card running off the
// photo (insideCard), is refused; so is a winner too small to read with
// print of a larger card beyond its sides (printAround): "move closer"
// would be wrong advice. Every photo is searched once more for a card as light as
// its table (nearCard): taken when the search above refused the photo, or
// when its outline lies inside the near card, at most two thirds of its
// area (an outline of the portrait's block, its stock as white as the
// table: 7 of 8 vertical light cards on a white border were so accepted
// wrong, TestAnalyzeFrontNearLightCard).
func findQuad(img image.Image) ([4]raster.Point, error) {
	wk := newWork(img)
	if wk.w < 16 || wk.h < 16 {
		return [4]raster.Point{}, fmt.Errorf("%w: photo too small", ErrNoCard)
	}
	lines := wk.houghLines()
	quad, err := wk.outlineQuad(img, lines)
	// Fitting the sides at a band's ends (bandEnds) is for photos the
	// search above found no card in: 12 ms a photo on all of them.
	found := err == nil && tooSmall(quad, img.Bounds()) == nil && isID1(quadAspect(quad))
	if q, ok := wk.nearCard(lines, !found); ok {
		// An outline found stands unless it is print inside the near
		// card (its portrait's frame).
		if q = wk.toPhoto(orderCorners(q)); tooSmall(q, img.Bounds()) == nil && (err != nil || contains(q, quad, nearSlack*max(wk.sx, wk.sy)) && polygonArea(q[:]) >= 1.5*polygonArea(quad[:])) {
			return q, nil
		}
	}
	return quad, err
}

// nearSlack is how far, in working px, an outline's corner may lie
// outside the near card that replaces it (findQuad): the two share a
// side seen on lines of the line search's 1 px bins, and the near card's
// sides are placed and fitted apart from the outline's. A vertical
// classic card on white (bench/robust #20), found by the near path 2.5%
// off, kept an outline of its band and portrait column (aspect 1.19,
// refused) whose corner lay 0.9 working px outside the near card's side.
const nearSlack = 2

// outlineQuad is findQuad's search among the outlines seen on four sides
// (or on the photo's edges), with farCard's "too small" answer.
func (wk *work) outlineQuad(img image.Image, lines []line) ([4]raster.Point, error) {
	cands := wk.candidates(lines)
	for i := range cands {
		cands[i].score = cands[i].rank()
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var best *outline
	for i := range cands {
		if wk.accept(cands[i]) || wk.acceptRefined(&cands[i]) || wk.acceptPastPrint(&cands[i]) {
			best = &cands[i]
			break
		}
	}
	for i := 0; best == nil && i < len(cands); i++ {
		// Only where nothing passed accept: an outline taken without the
		// surround test never displaces one taken with it.
		if wk.acceptBusySurround(cands[i]) {
			best = &cands[i]
		}
	}
	if best == nil {
		// Too small to find with confidence is still worth telling: the
		// shopper moves closer (farCard).
		if q, ok := wk.farCard(lines); ok && !wk.withinOutline(cands, q) {
			if err := tooSmall(wk.toPhoto(orderCorners(q)), img.Bounds()); err != nil {
				return [4]raster.Point{}, err
			}
		}
		if len(cands) == 0 {
			return [4]raster.Point{}, ErrNoCard
		}
		return [4]raster.Point{}, ErrUnsureOutline
	}
	best = wk.outermost(cands, wk.clearest(cands, best))
	if wk.teeCorner(*best) || wk.runsOnTwice(*best) {
		// Print against a line of the card's. Refused here, not in
		// accept: the next outline down was no likelier the card
		// (bench/robust #200 and #203 with the ovals had blocks of
		// print 41% and 9% off taken next, the first accepted).
		return [4]raster.Point{}, ErrUnsureOutline
	}
	widened := wk.widenPastPrint(*best)
	best = &widened
	if wk.insideCard(lines, *best) {
		return [4]raster.Point{}, ErrUnsureOutline
	}
	quad := wk.toPhoto(orderCorners(wk.refine(*best)))
	if tooSmall(quad, img.Bounds()) != nil && (wk.withinOutline(cands, best.corners) || wk.runsOn(*best) || wk.printAround(best.corners)) {
		return [4]raster.Point{}, ErrUnsureOutline
	}
	return quad, nil
}

// withinOutline reports whether a larger outline seen clearly all round
// (strongSupport on its four sides, none on the photo's edge) contains
// q, at least twice its area: then q may be print on a card whose
// outline failed a confidence test, and "too small, move closer" is
// wrong advice. The real card on light wood (testdata/cards
// wood_front.jpg), its outline refused by the surround test at
// maxChromaShift 0.01, had a block of its portrait's pixels, 7% of the
// photo, answer card_too_small; on bench/robust one light card on a
// white border so told (3% of the photo, 84% of its width off) is
// refused instead, and the far cards are still told 6 of 6.
func (wk *work) withinOutline(cands []outline, q [4]raster.Point) bool {
	area := polygonArea(q[:]) / float64(wk.w*wk.h)
	for _, o := range cands {
		if o.frameSides() > 0 || o.area < 2*area || !contains(o.corners, q, 1) {
			continue
		}
		if min(o.support[0], o.support[1], o.support[2], o.support[3]) >= strongSupport {
			return true
		}
	}
	return false
}

// acceptRefined accepts an outline seen clearly all round, inside the
// photo, whose corners fitted to the edge (refine) pass accept where the
// Hough lines' did not, and moves its corners there. The lines are 1° and
// 1 px coarse: a side 0.4° off its line runs up to 3 px inside the card
// at one end, and the strip 3 px beyond it (the surround and stock tests)
// reads the card's blurred edge there: a dark card on granite measured
// (94, 97, 102) beyond its top, half card, against (136, 136, 138)
// beyond its bottom, 1.403× brighter, and was refused (bench/robust #139).
func (wk *work) acceptRefined(o *outline) bool {
	if o.frameSides() > 0 || min(o.support[0], o.support[1], o.support[2], o.support[3]) < strongSupport || !wk.onlySurroundFails(*o) {
		return false
	}
	r := *o
	r.corners = wk.refine(*o)
	if !convex(r.corners) {
		return false
	}
	r.area = polygonArea(r.corners[:]) / float64(wk.w*wk.h)
	r.aspect = quadAspect(r.corners)
	if !wk.accept(r) {
		return false
	}
	*o = r
	return true
}

// onlySurroundFails reports whether o passes bounded's stock tests and
// fails its surround test.
func (wk *work) onlySurroundFails(o outline) bool {
	_, _, ok := wk.stockBounded(o)
	return ok && !wk.oneSurround(o, centreOf(o.corners))
}

// toPhoto maps corners from working to photo coordinates.
func (wk *work) toPhoto(q [4]raster.Point) [4]raster.Point {
	for i, p := range q {
		q[i] = raster.Point{X: wk.photoX(p.X), Y: wk.photoY(p.Y)}
	}
	return q
}

// rank orders the accepted candidates: ID-1 proportions first (a band's or
// a portrait's outline inside a card is not ID-1-shaped, and a card of
// another format is still found when nothing else is); then outlines seen
// clearly all round (strongSupport) before those with a side partly
// hidden; then the largest, so the card's own edge beats a band's, a
// portrait frame's or a text block's inside it, each side on the photo's
// edge taking frameDiscount off so a card edge seen just inside the border
// beats the border; then the share of edge along the sides.
func (o outline) rank() float64 {
	s, weakest := 0.0, 1.0
	for _, v := range o.support {
		if v >= 0 {
			s += v
			weakest = min(weakest, v)
		}
	}
	r := o.area*(1-frameDiscount*float64(o.frameSides())) + 0.01*s
	if weakest >= strongSupport {
		r++
	}
	if isID1(o.aspect) {
		r += 2
	}
	return r
}

// nearOutline is how far (a share of best's long side) the corners of an
// outline may lie from best's to count as the same card seen along other
// lines (clearest).
const nearOutline = 0.1

// minCrossing is the least angle between a side of best and the same side
// of another outline for clearest to weigh them: 3°, above the Hough
// transform's 1° bins and the fit's spread, below the grain line's 10°.
const minCrossing = 3 * math.Pi / 180

// clearest returns, among the accepted outlines with the same sides on the
// frame whose every corner lies within nearOutline of best's and one of
// whose sides crosses best's at a slant (minCrossing), the one whose
// weakest seen side is the strongest edge, or best: the ranking's area
// prefers the larger of two such outlines, and a grain line of a wood
// table just beyond a light card's side, crossing it at 10°, made a
// larger outline with one side 91% edge where the card's own edge showed
// 100% (the card 7.4% off). Lines parallel to best's sides are left to
// the ranking: an accent line printed along a card's edge is a clearer
// edge than the card's own against a grey cloth (TestAnalyzeFrontDesigns).
func (wk *work) clearest(cands []outline, best *outline) *outline {
	weakest := func(o *outline) float64 {
		w := 1.0
		for _, v := range o.support {
			if v >= 0 {
				w = min(w, v)
			}
		}
		return w
	}
	size := max(dist(best.corners[0], best.corners[1]), dist(best.corners[1], best.corners[2]))
	out := best
	for i := range cands {
		o := &cands[i]
		if o.frameSides() != best.frameSides() || weakest(o) <= weakest(out) || !isID1(o.aspect) {
			continue
		}
		near, slant := true, 0.0
		oc, bc := orderCorners(o.corners), orderCorners(best.corners)
		for k := range 4 {
			near = near && dist(oc[k], bc[k]) <= nearOutline*size
			a := math.Atan2(oc[(k+1)%4].Y-oc[k].Y, oc[(k+1)%4].X-oc[k].X) - math.Atan2(bc[(k+1)%4].Y-bc[k].Y, bc[(k+1)%4].X-bc[k].X)
			slant = max(slant, math.Abs(math.Remainder(a, 2*math.Pi)))
		}
		if near && slant >= minCrossing && wk.accept(*o) {
			out = o
		}
	}
	return out
}

// isID1 reports whether an outline's aspect is ID-1's within
// AspectTolerance.
func isID1(aspect float64) bool { return math.Abs(aspect/ID1Aspect-1) <= AspectTolerance }

// outermost returns the largest accepted outline that contains best and
// shows a portrait, or best: a card of another format (a badge) whose
// band's edge cuts an ID-1-shaped outline off it is that badge, not the
// ID-1 part. An outline with a side on the photo's edge counts when it is
// twice best's size or more: a card filling a 16:9 frame's height, one
// side partly hidden, ranked below its portrait column between two
// accent lines, seen clearly all round (TestAnalyzeFrontLightTables);
// taken at any size, the photo's edge beat a card on a white border
// (bench/robust: 2 wrong quads, 6.8% and 10.4% off). An outline not of
// ID-1's proportions whose side beyond an ID-1-shaped best is a step of
// brightness alone (tableBeyond) is not taken when best shows a portrait
// at one end and not the other, as a license does: a card on wood had a
// grain line beyond its side make a larger outline, of the wrong
// proportions, that took its place (bench/robust: 2 cards so refused on
// light wood). A guilloche card's text block, the text's ink its most
// common colour, differs from that "stock" alike at both ends, and its
// outline reaching to the card's edge, grey against a grey laminate,
// still takes its place (refused for its proportions:
// TestAnalyzeFrontLightTables).
func (wk *work) outermost(cands []outline, best *outline) *outline {
	out := best
	for i := range cands {
		o := &cands[i]
		if o.area < 1.1*out.area || o.frameSides() > 0 && o.area < 2*best.area || !contains(o.corners, best.corners, 1) || !wk.accept(*o) ||
			!isID1(o.aspect) && isID1(best.aspect) && wk.oneEnded(*best) && wk.tableBeyond(*best, *o) {
			continue
		}
		if toWork, stock, ok := wk.cardStock(o.corners); ok && wk.hasPortrait(toWork, stock) {
			out = o
		}
	}
	return out
}

// minPortraitLead is how much more of portraitCore must be print at one
// short end than at the other for an outline to show a license's layout,
// the portrait at one end and the data at the other (oneEnded): on
// bench/robust's light-wood cards the ends measured 0.95 against 0.54 and
// 0.89 against 0.44; a guilloche card's text block, its ink taken for
// the stock, 0.80 against 0.80 (TestAnalyzeFrontLightTables).
const minPortraitLead = 0.3

// oneEnded reports whether o shows a portrait at one short end and not
// at the other (minPortraitLead).
func (wk *work) oneEnded(o outline) bool {
	toWork, stock, ok := wk.cardStock(o.corners)
	if !ok {
		return false
	}
	sh := wk.printShares(toWork, stock)
	return math.Abs(sh[0]-sh[1]) >= minPortraitLead
}

// tableBeyond reports whether a side of outer that runs outside inner
// is a step in brightness alone, the same surface lit otherwise
// (sameLitSurface) 3 px inside and outside it: a grain line of a wood
// table beyond a card, not the edge of a card of another format, whose
// stock differs from the table in colour.
func (wk *work) tableBeyond(inner, outer outline) bool {
	co := centreOf(outer.corners)
	for k, v := range outer.support {
		a, b := outer.corners[k], outer.corners[(k+1)%4]
		if v < 0 || onBoundary(inner.corners, raster.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}) {
			continue
		}
		var in, out [][3]float32
		for _, p := range wk.across(a, b, co, 3) {
			in, out = append(in, p.in), append(out, p.out)
		}
		mi, ok1 := median(in)
		mo, ok2 := median(out)
		if ok1 && ok2 && sameLitSurface(mi, mo) {
			return true
		}
	}
	return false
}

// onBoundary reports whether p lies within 2 px of a side of the
// quadrilateral q.
func onBoundary(q [4]raster.Point, p raster.Point) bool {
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		l := dist(a, b)
		if l > 0 && math.Abs((b.X-a.X)*(p.Y-a.Y)-(b.Y-a.Y)*(p.X-a.X))/l <= 2 {
			return true
		}
	}
	return false
}

// centreOf is the mean of the four corners.
func centreOf(c [4]raster.Point) raster.Point {
	var m raster.Point
	for _, p := range c {
		m.X, m.Y = m.X+p.X/4, m.Y+p.Y/4
	}
	return m
}

// contains reports whether every corner of inner lies inside outer (a
// convex quadrilateral), give or take slack px.
func contains(outer, inner [4]raster.Point, slack float64) bool {
	var sign float64
	for _, p := range inner {
		for k := range 4 {
			a, b := outer[k], outer[(k+1)%4]
			cr := (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
			if sign == 0 {
				sign = math.Copysign(1, (b.X-a.X)*(outer[(k+2)%4].Y-a.Y)-(b.Y-a.Y)*(outer[(k+2)%4].X-a.X))
			}
			if cr*sign < -slack*dist(a, b) {
				return false
			}
		}
	}
	return true
}

// accept applies the confidence tests beyond the edge support candidates
// checked: something else than the card's stock beyond every seen side;
// for an outline inside the photo, not a block of data lines
// (textBlock); for one on the photo's edges the full-frame tests, the
// card inside its seen sides up to the frame (frameIsCard) among them.
func (wk *work) accept(o outline) bool {
	toWork, stock, ok := wk.bounded(o)
	if !ok {
		return false
	}
	switch o.frameSides() {
	case 0:
		return !wk.textBlock(o)
	case 4:
		photo := float64(max(wk.w, wk.h)) / float64(min(wk.w, wk.h))
		if math.Abs(photo/ID1Aspect-1) > fullFrameAspect {
			return false
		}
	}
	return (o.area >= fullFrameMin || o.frameSides() == 1 && o.area >= runOffMin && wk.runsOff(o)) && math.Abs(o.aspect/ID1Aspect-1) <= AspectTolerance &&
		wk.frameIsCard(o) && wk.hasPortrait(toWork, stock)
}

// runsOff reports whether the sides meeting o's frame side show their
// edge right up to the frame, over the stretch where a card ending
// inside the photo would round its corner (runOffMin).
func (wk *work) runsOff(o outline) bool {
	for k := range 4 {
		if o.sides[k].frame {
			continue
		}
		a, b := o.corners[k], o.corners[(k+1)%4]
		p, l := &wk.profiles[o.sides[k].id], o.sides[k]
		r := cornerRadius * math.Max(dist(o.corners[0], o.corners[1]), dist(o.corners[1], o.corners[2])) / dist(a, b)
		if o.sides[(k+3)%4].frame && p.support(l, a, b, 0, r) < minSupport ||
			o.sides[(k+1)%4].frame && p.support(l, a, b, 1-r, 1) < minSupport {
			return false
		}
	}
	return true
}

// bounded maps o to the card's space and reads the card's stock, then
// checks the card against what lies around it: something else than its
// stock beyond every seen side (support not negative), and one surface all
// round. accept and farAccept go on from the mapping and the stock.
func (wk *work) bounded(o outline) (raster.Homography, [3]float32, bool) {
	toWork, stock, ok := wk.stockBounded(o)
	return toWork, stock, ok && wk.oneSurround(o, centreOf(o.corners))
}

// stockBounded is bounded without the surround test: the mapping, the
// stock, and whether something else than the stock lies beyond every
// seen side: another colour, or a table of the stock's colour with a
// grain of its own (tableLikeStock).
func (wk *work) stockBounded(o outline) (raster.Homography, [3]float32, bool) {
	toWork, stock, ok := wk.cardStock(o.corners)
	if !ok {
		return raster.Homography{}, [3]float32{}, false
	}
	centre := centreOf(o.corners)
	for k, v := range o.support {
		a, b := o.corners[k], o.corners[(k+1)%4]
		if v >= 0 && wk.stockOutside(a, b, centre, stock) && !wk.tableLikeStock(a, b, centre, stock) {
			return raster.Homography{}, [3]float32{}, false
		}
	}
	return toWork, stock, true
}

// photoX and photoY map working coordinates to the photo's.
func (wk *work) photoX(x float64) float64 { return x * wk.sx }
func (wk *work) photoY(y float64) float64 { return y * wk.sy }

// orderCorners turns a convex quadrilateral into top-left, top-right,
// bottom-right, bottom-left of the card with its long side on top: clockwise
// on screen, the first side one of the long pair and pointing right (or
// down, when it stands upright within about 1°).
func orderCorners(c [4]raster.Point) [4]raster.Point {
	var area float64
	for k := range 4 {
		a, b := c[k], c[(k+1)%4]
		area += a.X*b.Y - b.X*a.Y
	}
	if area < 0 { // counter-clockwise on screen: reverse
		c = [4]raster.Point{c[0], c[3], c[2], c[1]}
	}
	c = longFirst(c)
	ex, ey := c[1].X-c[0].X+c[2].X-c[3].X, c[1].Y-c[0].Y+c[2].Y-c[3].Y
	if upright := math.Abs(ex) < 0.02*math.Abs(ey); (!upright && ex < 0) || (upright && ey < 0) {
		c = [4]raster.Point{c[2], c[3], c[0], c[1]}
	}
	return c
}
