package card

// A corner of an outline drawn inside a card can be a T: one side is a
// line of the card's own (its edge, a band's edge) that runs on through
// the corner, and the other is the edge of a block printed against it,
// which stops short of that line where the band or the stock strip
// between them shows no step. A card's corner ends both its sides
// (teeCorner). Where the block's sides are seen right up to its corners,
// the card's lines still run on through two of them: a band's edge along
// the card past both ends of a portrait's block, a column of print
// carried on below it (runsOnTwice).

// teeEnd is the stretch of a side, as a share of its length from the
// corner, over which it must show its edge up to a corner where the
// other side runs on: from 0.1, the candidates' own window, which leaves
// out the rounded corner (3.7% of the long side, 5.9% of the short).
const teeEnd = 0.3

// teeCorner reports whether a corner of o, an outline inside the photo,
// is a T: one side runs on past it as an edge (runsOnPast) and the
// other shows edge along less than strongSupport of its stretch 0.1 to
// teeEnd of its length short of it. bench/robust #50 printed with the
// design's oval (-finder-oval; a dark-band card upright on white, its
// top 1–3% of its width off the photo) had its portrait's block, widened
// to the card's left edge, accepted 65.6% off: that edge runs on below
// the block (100% edge), and the block's bottom side, crossing the band
// and the stock strip to reach it, shows 44% edge before the corner.
// Measured on the search's winners (after outermost) on the 236 renders
// as JPEG and PNG, with the labeled faces and with the ovals (944
// photos), where a side ran on past a corner: the other side there
// showed 1.00 on every winner that was the card (#4, #5, #98), and less
// than strongSupport, 0.41–0.89, on 13 of the 22 that were print inside
// it (#37, #50, #112, #115, #126, #200, #202, #203, #211, #215, #216,
// #220, #230; all but #50's PNG refused by later tests or replaced by
// the near card, as they still are; #211's PNG is now found by it).
func (wk *work) teeCorner(o outline) bool {
	if o.frameSides() > 0 {
		return false // the frame's sides have no profile; frameIsCard tests them
	}
	for k := range 4 {
		j := (k + 3) % 4 // side k starts at corner k, side j ends there
		if wk.runsOnPast(o, k, 0) && wk.sideSupport(o, j, 1-teeEnd, 0.9) < strongSupport ||
			wk.runsOnPast(o, j, 1) && wk.sideSupport(o, k, 0.1, teeEnd) < strongSupport {
			return true
		}
	}
	return false
}

// sideSupport is side k's edge support from t0 to t1 of its way.
func (wk *work) sideSupport(o outline, k int, t0, t1 float64) float64 {
	l := o.sides[k]
	return wk.profiles[l.id].support(l, o.corners[k], o.corners[(k+1)%4], t0, t1)
}

// runsOnTwice reports whether o, an outline inside the photo, has sides
// running on as an edge (runsOnPast) past two of its corners' ends or
// more. A table's line may run along one side of a card past one
// corner (a grain line, a fold of cloth), not along the whole card;
// print inside a card has the card's band or text columns run on past
// it at both ends. Measured on the search's winners (after outermost)
// on the 236 renders as JPEG and PNG, with the labeled faces and with
// the ovals (944 photos, 851 with a winner): on the 668 that were the
// card (every corner within 5% of its width) inside the photo (106
// more have a side on the frame) the second strongest of the eight
// ends' run-on support was at most 0.76 (#98's PNG, #159); on the
// print blocks without a T corner it reached strongSupport on #64,
// #81, #82 (ovals, JPEG), #90, #92 and #215 (ovals, PNG), 0.88 on
// #224, and on 9 of the 13 with one. #92 with the ovals, a light card standing on a white border,
// had its portrait's block (aspect 1.52, 46% off) answered by the
// search, the near card alone replacing it.
func (wk *work) runsOnTwice(o outline) bool {
	if o.frameSides() > 0 {
		return false
	}
	n := 0
	for k := range 4 {
		for end := range 2 {
			if wk.runsOnPast(o, k, end) {
				n++
			}
		}
	}
	return n >= 2
}
