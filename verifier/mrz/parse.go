package mrz

import (
	"errors"
	"fmt"
	"strings"
)

// MaxInput bounds what Parse reads: a zone is at most 3 × 30 or 2 × 44
// characters, and a reader's text with spaces and blank lines stays far below.
const MaxInput = 1024

// Parse reads a zone as an OCR gave it: lines separated by newlines, spaces
// and blank lines ignored, letters in either case. It answers the zone's
// fields when every check digit holds, after the look-alike corrections of
// correct.go; otherwise a coded error of errors.go naming the field.
func Parse(zone string) (*MRZ, error) {
	if len(zone) > MaxInput {
		return nil, fmt.Errorf("mrz: %d bytes (max %d): %w", len(zone), MaxInput, ErrFormat)
	}
	lines, err := splitLines(zone)
	if err != nil {
		return nil, err
	}
	var l *layout
	m := &MRZ{}
	switch {
	case len(lines) == td3.lines && len(lines[0]) == td3.width && len(lines[1]) == td3.width:
		l, m.Format = &td3, TD3
	case len(lines) == td1.lines && len(lines[0]) == td1.width && len(lines[1]) == td1.width && len(lines[2]) == td1.width:
		l, m.Format = &td1, TD1
	default:
		lens := make([]int, len(lines))
		for i, line := range lines {
			lens[i] = len(line)
		}
		return nil, fmt.Errorf("mrz: lines of %v characters, want 2 of 44 (TD3) or 3 of 30 (TD1): %w", lens, ErrFormat)
	}
	if err := force(lines, l.classes()); err != nil {
		return nil, err
	}
	if err := m.checkDigits(l, lines); err != nil {
		return nil, err
	}
	if err := m.fields(l, lines); err != nil {
		return nil, err
	}
	for _, line := range lines {
		m.Lines = append(m.Lines, string(line))
	}
	return m, nil
}

// splitLines keeps the non-blank lines, without spaces, upper-cased; any
// character outside A-Z, 0-9 and '<' is ErrFormat.
func splitLines(zone string) ([][]byte, error) {
	var lines [][]byte
	for _, raw := range strings.Split(zone, "\n") {
		var line []byte
		for i := 0; i < len(raw); i++ {
			c := raw[i]
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				continue
			case c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '<':
			default:
				return nil, fmt.Errorf("mrz: character %q: %w", c, ErrFormat)
			}
			line = append(line, c)
		}
		if len(line) > 0 {
			lines = append(lines, line)
		}
	}
	return lines, nil
}

// checkDigits validates (and where one reading alone allows, corrects)
// every check digit, field by field and then the composite, and sets
// DocumentNumber and the optional data those checks delimit.
func (m *MRZ) checkDigits(l *layout, lines [][]byte) error {
	number, tail, err := m.documentNumber(l, lines)
	if err != nil {
		return err
	}
	// Dates are digits only (force read their look-alikes): nothing for
	// the check digit to choose there.
	for _, f := range []struct {
		name         string
		field, check span
		choices      []cell
	}{{"birth date", l.birth, l.birthCheck, nil}, {"expiry date", l.expiry, l.expiryCheck, nil},
		{"personal number", l.optional, l.optionalCheck, cells(l.optional)}} {
		if f.check.n == 0 {
			continue
		}
		if err := m.fix(f.name, lines, f.choices, func() bool {
			return checkHolds(f.field.of(lines), lines[f.check.line][f.check.start])
		}); err != nil {
			return err
		}
	}
	// The composite also covers TD1's optional data, which has no check
	// digit of its own: those cells are the ones it may correct.
	var free []cell
	if l.optionalCheck.n == 0 {
		free = append(cells(span{l.optional.line, l.optional.start + tail, l.optional.n - tail, alnum}), cells(l.optional2)...)
	}
	if err := m.fix("composite", lines, free, func() bool {
		var s strings.Builder
		for _, c := range l.compositeOf {
			s.WriteString(c.of(lines))
		}
		return checkHolds(s.String(), lines[l.composite.line][l.composite.start])
	}); err != nil {
		return err
	}
	m.DocumentNumber = strings.TrimRight(number(), "<")
	if l.optionalCheck.n == 0 {
		m.OptionalData = strings.Trim(string(lines[l.optional.line][l.optional.start+tail:l.optional.start+l.optional.n]), "<")
		m.OptionalData2 = strings.Trim(l.optional2.of(lines), "<")
	} else {
		m.OptionalData = strings.Trim(l.optional.of(lines), "<")
	}
	return nil
}

// documentNumber checks the document number. A TD1 number longer than 9
// characters (Part 5, 4.2.2 note j) has a filler for its check digit, its
// tail and check digit at the start of the optional data and a filler after
// them: tail is how many optional-data columns that takes. number reads the
// number from the (possibly corrected) lines.
func (m *MRZ) documentNumber(l *layout, lines [][]byte) (number func() string, tail int, err error) {
	where := cells(l.number)
	check := func() byte { return lines[l.numberCheck.line][l.numberCheck.start] }
	number = func() string { return l.number.of(lines) }
	if l.optionalCheck.n == 0 && check() == '<' && strings.Trim(l.number.of(lines), "<") != "" {
		opt := lines[l.optional.line][l.optional.start : l.optional.start+l.optional.n]
		end := 0
		for end < len(opt) && opt[end] != '<' {
			end++
		}
		if end < 2 {
			return nil, 0, fmt.Errorf("mrz: document number: no check digit and no continuation in the optional data: %w", ErrCheckDigit)
		}
		if d, ok := toDigit[opt[end-1]]; ok {
			opt[end-1] = d
		}
		if c := opt[end-1]; c < '0' || c > '9' {
			return nil, 0, fmt.Errorf("mrz: document number: check digit %q: %w", c, ErrFormat)
		}
		where = append(where, cells(span{l.optional.line, l.optional.start, end - 1, alnum})...)
		check = func() byte { return opt[end-1] }
		number = func() string { return l.number.of(lines) + string(opt[:end-1]) }
		tail = min(end+1, len(opt))
	}
	err = m.fix("document number", lines, where, func() bool { return checkHolds(number(), check()) })
	return number, tail, err
}

// fix runs correct on one field and records a correction.
func (m *MRZ) fix(name string, lines [][]byte, where []cell, valid func() bool) error {
	changed, err := correct(lines, where, valid)
	if err != nil {
		if errors.Is(err, ErrCheckDigit) {
			return fmt.Errorf("mrz: %s: %w", name, ErrCheckDigit)
		}
		return fmt.Errorf("mrz: %s: %w", name, err)
	}
	if changed {
		m.Corrected = append(m.Corrected, name)
	}
	return nil
}
