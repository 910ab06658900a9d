package mrz

import "fmt"

// The look-alike pairs of OCR-B that readers confuse (the digit and the
// letter on either side). Only these are corrected: any other misread fails
// its check digit.
var (
	toDigit  = map[byte]byte{'O': '0', 'I': '1', 'S': '5', 'B': '8', 'Z': '2'}
	toLetter = map[byte]byte{'0': 'O', '1': 'I', '5': 'S', '8': 'B', '2': 'Z'}
)

// maxAmbiguous bounds the look-alike positions one correction tries
// (2^12 readings); a field with more is left as read.
const maxAmbiguous = 12

// Twin is c's look-alike (the pairs above), 0 when it has none.
func Twin(c byte) byte {
	if d, ok := toDigit[c]; ok {
		return d
	}
	return toLetter[c]
}

// force reads every position by its class: a look-alike where only its
// twin is allowed becomes the twin (a '0' in a name is an 'O', an 'O' in a
// date is a '0'); any other character the position cannot hold is
// ErrFormat.
func force(lines [][]byte, classes [][]class) error {
	for li, line := range lines {
		for i, c := range line {
			switch classes[li][i] {
			case alpha:
				if c >= '0' && c <= '9' {
					t, ok := toLetter[c]
					if !ok {
						return fmt.Errorf("mrz: line %d column %d: digit %q where only letters may be: %w", li+1, i+1, c, ErrFormat)
					}
					line[i] = t
				}
			case numeric:
				if c >= 'A' && c <= 'Z' {
					t, ok := toDigit[c]
					if !ok {
						return fmt.Errorf("mrz: line %d column %d: letter %q where only digits may be: %w", li+1, i+1, c, ErrFormat)
					}
					line[i] = t
				}
			}
		}
	}
	return nil
}

// cell is one position of the zone.
type cell struct{ line, col int }

// cells lists the positions of spans.
func cells(spans ...span) []cell {
	var out []cell
	for _, s := range spans {
		for i := 0; i < s.n; i++ {
			out = append(out, cell{s.line, s.start + i})
		}
	}
	return out
}

// correct makes valid hold by look-alike substitutions in the given cells:
// as read if it holds so; otherwise the one set of substitutions that makes
// it hold, if exactly one does (ErrAmbiguous if several, ErrCheckDigit if
// none). The reading as printed is not a guess, a correction is: of the
// 2^k - 1 corrections of k look-alikes about one in ten passes a check digit
// by chance, so a correction is made only when it is the only one. changed
// reports whether lines were altered.
func correct(lines [][]byte, where []cell, valid func() bool) (changed bool, err error) {
	if valid() {
		return false, nil
	}
	var amb []cell
	for _, c := range where {
		if Twin(lines[c.line][c.col]) != 0 {
			amb = append(amb, c)
		}
	}
	if len(amb) == 0 || len(amb) > maxAmbiguous {
		return false, ErrCheckDigit
	}
	flip := func(mask int) {
		for i, c := range amb {
			if mask&(1<<i) != 0 {
				lines[c.line][c.col] = Twin(lines[c.line][c.col])
			}
		}
	}
	found, count := 0, 0
	for mask := 1; mask < 1<<len(amb); mask++ {
		flip(mask)
		if valid() {
			found, count = mask, count+1
		}
		flip(mask) // a twin's twin is the character itself
	}
	switch count {
	case 0:
		return false, ErrCheckDigit
	case 1:
		flip(found)
		return true, nil
	}
	return false, fmt.Errorf("%d readings: %w", count, ErrAmbiguous)
}

// checkHolds reports whether check is data's check digit. A filler check
// digit is allowed only for data that is all fillers (TD3's empty personal
// number, Part 4 4.2.2 note).
func checkHolds(data string, check byte) bool {
	if check == '<' {
		for i := 0; i < len(data); i++ {
			if data[i] != '<' {
				return false
			}
		}
		return true
	}
	d, ok := CheckDigit(data)
	return ok && d == check
}
