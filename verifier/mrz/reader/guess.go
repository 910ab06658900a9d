package reader

import (
	"fmt"
	"math"
	"strings"

	"github.com/idgate/idgate/verifier/mrz"
)

// maxGuesses bounds the unsure cells a zone may have the check digits
// settle (2^3 = 8 readings tried). The odds: a guess can pass wrongly only
// when some cell's true character is neither of its two candidates (both
// stand MinMargin above every third character, the evidence MinMargin
// rests on). Even then, one wrong cell in a field never passes its check
// digit (the candidates' values differ modulo 10 from each other and, by
// the blind margins, from the characters the check digit confuses with
// them; the weights 7, 3, 1 are prime to 10); two in one field pass it 1
// time in 10, and the composite again 1 in 10. Of the 7 other readings,
// the one true reading passing beside a wrong one refuses the zone (two
// readings); so a wrong acceptance needs a third-placed truth and a wrong
// reading passing two check digits alone: at most about 7 in 100 of those
// rare zones (7 readings, each 1 in 100). More cells, more readings: 4
// would be 15 in 100. bench/mrz -below 2.5 (272 small zones): 3 more read,
// 0 wrong (docs/engines.md).
const maxGuesses = 3

// sure: the cell's character stands min (the zone's least margin:
// MinMargin, or MinBlurredMargin) above every character but its twin, and
// MinBlindMargin above those of its check-digit value.
func (c ranked) sure(min, blind float64) bool { return c.margin >= min && c.blind >= blind }

// guessable: an unsure cell whose character and runner-up stand clear of
// every other, and that a check digit can tell apart.
func (c ranked) guessable(min, blind float64) bool {
	return c.blind >= blind && c.altMargin >= min && c.altBlind >= blind && !mrz.SameCheckValue(c.char, c.alt)
}

// parseCells parses the matched cells. Every cell sure: the zone as read.
// Otherwise, when each unsure cell is guessable, lies where a check digit
// covers it (never a name, nationality or sex: mrz.Checked) and there are
// at most maxGuesses of them: every choice between each one's character
// and runner-up is parsed, and the zone answered is the one reading whose
// check digits all hold, if exactly one does. Anything else is ErrUnsure;
// when the cells left unclear are name cells whose letter is one of two
// (their character and runner-up MinMargin above every third), and the
// rest so reads, an UnsureNames for a second reading to settle.
//
// With twinsApart (the fine reading), a cell a check digit covers whose
// position may hold both look-alike twins must tell them apart by the
// margin too, or be settled by the check digits as any unclear cell: a
// check digit passes one reading in ten, and on a real Swiss card scan
// (passporteye/100_id-che.jpg, 280 px of zone) the fine reading took
// three 0s of the document number for Os, which passed it.
//
// ink is each cell's print against its zone's typical cell (inkRatios;
// nil: not measured): a cell under MinInk, or a letter no check digit
// covers printed bare or faint and poorly matched, is unclear whatever
// its margins (ink.go: washed).
func parseCells(chars []byte, cells [][]cellRead, ink [][]cellPrint, minMargin, minBlind float64, twinsApart bool) (*mrz.MRZ, error) {
	format := mrz.TD3
	if len(cells) == 3 {
		format = mrz.TD1
	}
	// Cells a check digit covers are ranked among the characters their
	// position may hold; the others (names) among all, as the margin was
	// calibrated: a name cell that looks most like a digit is not read as
	// the nearest letter without a check digit to confirm it.
	admits := mrz.Admits(format)
	lines := make([][]ranked, len(cells))
	for li, line := range cells {
		for col, c := range line {
			checked := mrz.Checked(format, li, col)
			r := rank(chars, c.scores, func(ch byte) bool { return !checked || admits(li, col, ch) }, twinsApart && checked)
			if !checked {
				r = r.asLetter(chars, c.scores)
			}
			lines[li] = append(lines[li], r)
		}
	}
	text := make([][]byte, len(lines))
	type pos struct{ line, col int }
	var unsure, names []pos
	nameLine, nameStart, nameN := mrz.NameField(format)
	weakest, guessable, faint := math.Inf(1), true, 0
	for li, line := range lines {
		for col, c := range line {
			text[li] = append(text[li], c.char)
			faded := washed(ink, li, col, !mrz.Checked(format, li, col) && c.char != '<')
			if c.sure(minMargin, minBlind) && !faded {
				continue
			}
			if faded {
				faint++
			}
			// A blind margin under its minimum counts as under MinMargin;
			// a cell matched outside the crop has no margin (NaN).
			weakest = math.Min(weakest, math.Min(c.margin, c.blind-minBlind+minMargin))
			if math.IsNaN(c.margin) {
				weakest = math.NaN()
			}
			if li == nameLine && col >= nameStart && col < nameStart+nameN && c.altMargin >= minMargin {
				// A name cell whose letter is one of two: left to a
				// second reading (UnsureNames).
				names = append(names, pos{li, col})
				continue
			}
			guessable = guessable && c.guessable(minMargin, minBlind) && mrz.Checked(format, li, col)
			unsure = append(unsure, pos{li, col})
		}
	}
	join := func() string {
		s := make([]string, len(text))
		for i, t := range text {
			s[i] = string(t)
		}
		return strings.Join(s, "\n")
	}
	if len(unsure) == 0 && len(names) == 0 {
		return mrz.Parse(join())
	}
	if !guessable || len(unsure) > maxGuesses {
		return nil, fmt.Errorf("mrz reader: a character stands %.3f above another (min %.3f), %d washed out: %w", weakest, minMargin, faint, ErrUnsure)
	}
	// No check digit covers a name: the unclear name cells are read as
	// fillers (any letter would do) while the rest is settled.
	for _, p := range names {
		text[p.line][p.col] = '<'
	}
	var found *mrz.MRZ
	var last error
	for mask := 0; mask < 1<<len(unsure); mask++ {
		for i, p := range unsure {
			c := lines[p.line][p.col]
			text[p.line][p.col] = c.char
			if mask&(1<<i) != 0 {
				text[p.line][p.col] = c.alt
			}
		}
		m, err := mrz.Parse(join())
		switch {
		case err != nil:
			last = err
		case found != nil && strings.Join(found.Lines, "\n") != strings.Join(m.Lines, "\n"):
			return nil, fmt.Errorf("mrz reader: %d unclear characters, more than one reading passes the check digits: %w", len(unsure), ErrUnsure)
		default:
			found = m
		}
	}
	if found == nil {
		return nil, fmt.Errorf("mrz reader: %d unclear characters, no reading passes the check digits (%w): %w", len(unsure), last, ErrUnsure)
	}
	if len(names) == 0 {
		return found, nil
	}
	u := &UnsureNames{Format: format, lines: found.Lines,
		err: fmt.Errorf("mrz reader: %d name characters unclear, the weakest %.3f above another (min %.3f), %d washed out: %w", len(names), weakest, minMargin, faint, ErrUnsure)}
	for col := nameStart; col < nameStart+nameN; col++ {
		u.candidates = append(u.candidates, []byte{found.Lines[nameLine][col]})
	}
	for _, p := range names {
		c := lines[p.line][p.col]
		u.candidates[p.col-nameStart] = []byte{c.char, c.alt}
	}
	return nil, u
}
