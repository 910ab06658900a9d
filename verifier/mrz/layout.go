package mrz

// class is the set of characters a position may hold (Doc 9303 Part 3, 4.2
// and the field tables of Parts 4 and 5). It decides how a look-alike is
// read there: forced where only one of the pair is allowed, left to the
// check digit where both are.
type class int

const (
	alpha   class = iota // A-Z and '<': a digit look-alike is its letter
	numeric              // 0-9 and '<': a letter look-alike is its digit
	alnum                // A-Z, 0-9, '<': the check digit decides
)

// span is a field's place: line, first column, length (check digits have
// length 1).
type span struct {
	line, start, n int
	class          class
}

func (s span) of(lines [][]byte) string { return string(lines[s.line][s.start : s.start+s.n]) }

// layout is where a format keeps each field.
type layout struct {
	lines, width                       int
	code, state, names, nationality    span
	number, numberCheck                span
	birth, birthCheck, sex             span
	expiry, expiryCheck                span
	optional, optionalCheck, optional2 span // a zero n: the format has none
	composite                          span
	compositeOf                        []span // what the composite check digit covers, in order
}

// td3 is Doc 9303 Part 4, 4.2.2: the passport's two lines of 44.
var td3 = layout{
	lines: 2, width: 44,
	code: span{0, 0, 2, alpha}, state: span{0, 2, 3, alpha}, names: span{0, 5, 39, alpha},
	number: span{1, 0, 9, alnum}, numberCheck: span{1, 9, 1, numeric},
	nationality: span{1, 10, 3, alpha},
	birth:       span{1, 13, 6, numeric}, birthCheck: span{1, 19, 1, numeric},
	sex:    span{1, 20, 1, alpha},
	expiry: span{1, 21, 6, numeric}, expiryCheck: span{1, 27, 1, numeric},
	optional: span{1, 28, 14, alnum}, optionalCheck: span{1, 42, 1, numeric},
	composite:   span{1, 43, 1, numeric},
	compositeOf: []span{{1, 0, 10, alnum}, {1, 13, 7, numeric}, {1, 21, 22, alnum}},
}

// td1 is Doc 9303 Part 5, 4.2.2: the card's three lines of 30.
var td1 = layout{
	lines: 3, width: 30,
	code: span{0, 0, 2, alpha}, state: span{0, 2, 3, alpha},
	number: span{0, 5, 9, alnum}, numberCheck: span{0, 14, 1, numeric},
	optional: span{0, 15, 15, alnum},
	birth:    span{1, 0, 6, numeric}, birthCheck: span{1, 6, 1, numeric},
	sex:    span{1, 7, 1, alpha},
	expiry: span{1, 8, 6, numeric}, expiryCheck: span{1, 14, 1, numeric},
	nationality: span{1, 15, 3, alpha},
	optional2:   span{1, 18, 11, alnum},
	composite:   span{1, 29, 1, numeric},
	compositeOf: []span{{0, 5, 25, alnum}, {1, 0, 7, numeric}, {1, 8, 7, numeric}, {1, 18, 11, alnum}},
	names:       span{2, 0, 30, alpha},
}

// classes is the class of every position of the layout, line by line.
func (l *layout) classes() [][]class {
	out := make([][]class, l.lines)
	for i := range out {
		out[i] = make([]class, l.width)
	}
	for _, s := range []span{l.code, l.state, l.names, l.nationality, l.number, l.numberCheck, l.birth,
		l.birthCheck, l.sex, l.expiry, l.expiryCheck, l.optional, l.optionalCheck, l.optional2, l.composite} {
		for i := 0; i < s.n; i++ {
			out[s.line][s.start+i] = s.class
		}
	}
	return out
}

// of is the layout of a format, nil for none.
func of(f Format) *layout {
	switch f {
	case TD3:
		return &td3
	case TD1:
		return &td1
	}
	return nil
}

// Checked reports whether a check digit covers the zone's position (line
// and column from 0): the composite's fields (each field check digit's too)
// and the composite digit itself. Names, nationality, sex, the document
// code and the issuing state carry none: nothing there may be guessed.
func Checked(f Format, line, col int) bool {
	l := of(f)
	if l == nil {
		return false
	}
	for _, s := range append([]span{l.composite}, l.compositeOf...) {
		if line == s.line && col >= s.start && col < s.start+s.n {
			return true
		}
	}
	return false
}

// Admits answers whether a position of the format's zone may hold a
// character as read: its class's characters, and the look-alike twins
// Parse reads as them (a '0' in a name is an 'O'). A position outside the
// layout admits every character (Parse refuses the zone's shape).
func Admits(f Format) func(line, col int, c byte) bool {
	l := of(f)
	if l == nil {
		return func(int, int, byte) bool { return true }
	}
	classes := l.classes()
	return func(line, col int, c byte) bool {
		if line < 0 || line >= len(classes) || col < 0 || col >= len(classes[line]) {
			return true
		}
		switch classes[line][col] {
		case alpha:
			_, twin := toLetter[c]
			return c < '0' || c > '9' || twin
		case numeric:
			_, twin := toDigit[c]
			return c < 'A' || c > 'Z' || twin
		}
		return true
	}
}
