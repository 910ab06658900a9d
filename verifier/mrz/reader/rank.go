package reader

import (
	"math"
	"slices"

	"github.com/idgate/idgate/verifier/mrz"
)

// ranked is a cell judged among the characters its position may hold.
type ranked struct {
	// char is the best of them; margin how far it stands above the next
	// that is not its look-alike twin (0/O, 1/I, 5/S, 8/B, 2/Z: the parser
	// settles those by the field's class or its check digit); blind how
	// far above the best of the same check-digit value modulo 10 (the
	// filler, 0, A, K and U are all 0): the check digits cannot see one
	// read as another.
	char          byte
	margin, blind float64
	// alt is the runner-up (the next that is not char's twin: the close
	// second a check digit may choose instead, guess.go); altMargin how far
	// char stands above every third character (neither of the two nor
	// their twins), altBlind above those of alt's check-digit value.
	alt                 byte
	altMargin, altBlind float64
}

// rank judges a cell's scores among the characters admit allows: a
// position's characters are fixed by the format (a date holds digits, a
// name letters), so a character it cannot hold is no competitor, and its
// look-alike twin counts as the character it stands for. With apart, a
// twin the position may hold (a 0 or an O in a document number) competes
// as any other character: the fine reading's (guess.go).
func rank(chars []byte, scores []float64, admit func(byte) bool, apart bool) ranked {
	twin := func(a, b byte) bool { return mrz.Twin(a) == b && !(apart && admit(b)) }
	best, alt := -1, -1
	for t, c := range chars {
		if admit(c) && (best < 0 || scores[t] > scores[best]) {
			best = t
		}
	}
	for t, c := range chars {
		if admit(c) && t != best && !twin(chars[best], c) && (alt < 0 || scores[t] > scores[alt]) {
			alt = t
		}
	}
	r := ranked{char: chars[best]}
	if alt < 0 { // a position of one character and its twin: nothing to tell apart
		r.alt, r.margin, r.blind, r.altMargin, r.altBlind = chars[best], math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
		return r
	}
	r.alt = chars[alt]
	second, blind, third, altBlind := math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	for t, c := range chars {
		if !admit(c) || t == best {
			continue
		}
		if mrz.SameCheckValue(c, chars[best]) {
			blind = math.Max(blind, scores[t])
		}
		if twin(chars[best], c) {
			continue
		}
		second = math.Max(second, scores[t])
		if t == alt || twin(chars[alt], c) {
			continue
		}
		third = math.Max(third, scores[t])
		if mrz.SameCheckValue(c, chars[alt]) {
			altBlind = math.Max(altBlind, scores[t])
		}
	}
	top := scores[best]
	r.margin, r.blind, r.altMargin, r.altBlind = top-second, top-blind, top-third, top-altBlind
	return r
}

// asLetter is c, a cell no check digit covers (names, the nationality, the
// sex: letters and the filler), judged as the letter it stands for: a
// digit read there counts as its look-alike twin (the parser reads a 1 in
// a name as an I), but at the twin's own score, so that every margin is
// the letter's. A letter damaged into a digit's shape is no twin of it: a
// T washed on the right keeps its stem and half its bar, a 1 (0.936) whose
// I stood 0.15 lower and 0.14 under the T, yet the cell stood 0.012 over
// the T as the twins counted as one, and read as I. No name letter read
// right matched a digit best (bench/mrz's 390 zones, 8,635 cells; the 22
// real pictures read right, 542; docs/engines.md), so none loses margin.
func (c ranked) asLetter(chars []byte, scores []float64) ranked {
	t := mrz.Twin(c.char)
	if c.char < '0' || c.char > '9' || t == 0 {
		return c
	}
	d := scores[slices.Index(chars, c.char)] - scores[slices.Index(chars, t)]
	c.margin, c.blind, c.altMargin, c.altBlind = c.margin-d, c.blind-d, c.altMargin-d, c.altBlind-d
	return c
}
