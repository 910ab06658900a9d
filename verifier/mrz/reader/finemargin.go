package reader

// fineMargins are the least margin and blind margin (guess.go) every cell
// of a zone read the fine way must stand by, at the template blur, σ
// pitches, it was read at. Calibrated with bench/mrz -margins on a set the
// bench does not read (seed 2: the two small stroke bands at 2, 5, 8 and
// 12 MP, 272 photos; each zone found read both ways and every cell scored
// against the printed text; docs/engines.md):
//   - under 0.15: of 712 zones, no cell read as another character
//     (names or any other); the weakest right cell of a zone stood at
//     0.0097 at the least. MinMargin and MinBlindMargin hold.
//   - 0.15 to 0.19: of 104 zones, 3 name cells read wrong, 0.0007-0.0098
//     above the right letter; no cell read as one of the same check-digit
//     value. So 0.015, half again over the worst, and MinBlindMargin.
//   - 0.19 and over (fineBlurLimit): 18 zones, a name cell read wrong
//     0.0506 above the right one and cells read as others of the same
//     check-digit value up to 0.0509 above, while no zone read right there
//     had its weakest cell over 0.02: refused as too blurred (ReadZone).
func fineMargins(blur float64) (min, blind float64) {
	if blur < 0.15 {
		return MinMargin, MinBlindMargin
	}
	return 0.015, MinBlindMargin
}

// fineBlurLimit: a zone the fine reading measures blurred by this much, σ
// pitches, or more is refused as too blurred (ErrTooBlurred) without
// matching its cells: a wrong character stands as far above the right one
// there as right ones stand above the next (fineMargins above). The
// photo's other zones are still read: on bench/mrz's 2 and 5 MP photos, 5
// whose first zone measured 0.19-0.24 read right from a later one (found
// on another working copy or pass, cut otherwise).
const fineBlurLimit = 0.19
