package card

// A card on a busy surface: a real card lying across notebook covers of
// three colours, or on a patterned carpet, has its outline seen clearly
// all round but no one table beyond it, and the surround test
// (oneSurround) refuses it. That test is what tells a block printed
// inside a card (a portrait with its ground, the band beyond one side and
// the card's stock beyond another) from a card, so an outline failing it
// alone is taken only when it shows a card's own outline more strictly
// than accept asks (acceptBusySurround).

// busySupport is the least edge support of every side of an outline
// taken without the surround test: the two real cards so refused
// (testdata/cards notebook.jpg and carpet.jpg) show 100% edge on every
// side; 97% was session 16's first try.
const busySupport = 0.97

// acceptBusySurround accepts, when no outline passed accept, an outline
// inside the photo that fails the surround test alone and shows a card's
// outline all round: every side busySupport edge, ID-1's proportions, a
// portrait (or an emblem) at one short end and not rows of text at
// both, and no side running on as an edge past either of its ends (sideRunsOn). A card's
// sides end at its rounded corners; a block printed inside a card has the
// card's own print edges running on past its corners: a band's inner
// edge along the whole card, the card's edge when the block sits at it
// (bench/robust #41 and #50's PNG: portrait blocks in dark-band cards,
// their side lines edge along 100% of the stretch past the corner, the
// real notebook card's at most 59%: the covers' print).
func (wk *work) acceptBusySurround(o outline) bool {
	if o.frameSides() > 0 || min(o.support[0], o.support[1], o.support[2], o.support[3]) < busySupport || !isID1(o.aspect) ||
		!wk.onlySurroundFails(o) || wk.textBlock(o) {
		return false
	}
	toWork, stock, ok := wk.cardStock(o.corners)
	if !ok || !wk.hasPortrait(toWork, stock) {
		return false
	}
	for k := range 4 {
		if wk.sideRunsOn(o, k) {
			return false
		}
	}
	return true
}

// sideRunsOn reports whether side k of o runs on as an edge past either
// of its ends (runsOnPast).
func (wk *work) sideRunsOn(o outline, k int) bool {
	return wk.runsOnPast(o, k, 0) || wk.runsOnPast(o, k, 1)
}

// runsOnPast reports whether side k of o shows edge along strongSupport
// of the stretch 0.1–0.4 of its length past its corner k+end (end 0 its
// first corner, 1 its second; as bothRunOn looks): a print edge running
// on, straight and unbroken, as a card's own edge would not.
func (wk *work) runsOnPast(o outline, k, end int) bool {
	l, a, b := o.sides[k], o.corners[k], o.corners[(k+1)%4]
	t0, t1 := -0.4, -0.1
	if end == 1 {
		t0, t1 = 1.1, 1.4
	}
	return wk.profiles[l.id].support(l, a, b, t0, t1) >= strongSupport
}
