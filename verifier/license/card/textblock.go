package card

// textBlock reports whether the outline's portraitCore at both short ends
// is rows of text, not a portrait: the core's rows (1 mm apart on the
// card) alternate between rows of print and rows of stock at least
// minTextAlternations times at each end. A portrait is one blob of print
// over the core's rows; ID-1's data lines, 4.6 mm apart, cross it four or
// five times. With stockMatch at 10 the block of data lines between a
// card's accent line and its edge, or between its portrait and its edge,
// was accepted as a card (bench/robust: two light cards on white, 35%
// and 64% off).
func (wk *work) textBlock(o outline) bool {
	toWork, stock, ok := wk.cardStock(o.corners)
	if !ok {
		return false
	}
	pc := portraitCore
	for e := range 2 {
		var shares []float64
		top := 0.0
		for v := pc.v0 * cardGH; v < pc.v1*cardGH; v++ {
			print, n := wk.rowPrint(toWork, stock, e, v)
			if n > 0 {
				shares = append(shares, float64(print)/float64(n))
				top = max(top, shares[len(shares)-1])
			}
		}
		// A row is print at half the fullest row's share or more (data
		// lines cut by the gaps between columns fill 16% of a row), stock
		// at a quarter or less, else neither.
		alternations, last := 0, -1
		for _, share := range shares {
			row := -1
			switch {
			case share >= max(0.1, top/2):
				row = 1
			case share <= min(0.15, top/4):
				row = 0
			}
			if row >= 0 && last >= 0 && row != last {
				alternations++
			}
			if row >= 0 {
				last = row
			}
		}
		if alternations < minTextAlternations {
			return false
		}
	}
	return true
}

// minTextAlternations is how many times the rows of portraitCore must
// turn from print to stock or back for it to be text: 22 rows cross
// four or five data lines (eight to ten turns); a portrait, one blob,
// turns at most twice.
const minTextAlternations = 5
