package mrz

import (
	"fmt"
	"strings"
)

// fields reads the values the check digits do not cover and holds every
// value to what the format allows.
func (m *MRZ) fields(l *layout, lines [][]byte) error {
	code := l.code.of(lines)
	switch {
	case m.Format == TD3 && code[0] != 'P':
		return fmt.Errorf("mrz: document code %q: a TD3 zone of a passport starts with P: %w", code, ErrField)
	case m.Format == TD1 && code[0] != 'I' && code[0] != 'A' && code[0] != 'C':
		return fmt.Errorf("mrz: document code %q: a TD1 zone starts with I, A or C: %w", code, ErrField)
	}
	m.DocumentCode = strings.TrimRight(code, "<")
	m.IssuingState = strings.Trim(l.state.of(lines), "<")
	m.Nationality = strings.Trim(l.nationality.of(lines), "<")
	if m.IssuingState == "" {
		return fmt.Errorf("mrz: issuing state empty: %w", ErrField)
	}
	// No check digit covers these codes: a code that is none is a misread
	// (or a sample's made-up state), never corrected to a near real one.
	if !IsCode(m.IssuingState) {
		return fmt.Errorf("mrz: issuing state %q is no ISO 3166 or ICAO code: %w", m.IssuingState, ErrField)
	}
	if m.Nationality != "" && !IsCode(m.Nationality) {
		return fmt.Errorf("mrz: nationality %q is no ISO 3166 or ICAO code: %w", m.Nationality, ErrField)
	}
	switch s := l.sex.of(lines); s {
	case "M", "F", "X":
		m.Sex = s
	case "<":
	default:
		return fmt.Errorf("mrz: sex %q: %w", s, ErrField)
	}
	var err error
	if m.BirthDate, err = parseDate(l.birth.of(lines), true); err != nil {
		return fmt.Errorf("mrz: birth date: %w", err)
	}
	if m.ExpiryDate, err = parseDate(l.expiry.of(lines), false); err != nil {
		return fmt.Errorf("mrz: expiry date: %w", err)
	}
	m.Surname, m.GivenNames = names(l.names.of(lines))
	if m.Surname == "" {
		return fmt.Errorf("mrz: no primary identifier (surname): %w", ErrField)
	}
	return nil
}

// names splits the name field at its first "<<" into the primary and the
// secondary identifier, each filler inside a name a space (Part 3, 4.6).
func names(field string) (surname, given string) {
	field = strings.TrimRight(field, "<")
	primary, secondary, _ := strings.Cut(field, "<<")
	word := func(s string) string {
		return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '<' }), " ")
	}
	return word(primary), word(secondary)
}

// parseDate reads YYMMDD. A birth date may have its day, or month and day,
// unknown ('<<', Part 3, 4.8); the year must be known, and an expiry date
// whole.
func parseDate(s string, birth bool) (Date, error) {
	num := func(p string, unknownOK bool) (int, bool, error) {
		if p == "<<" && unknownOK {
			return 0, true, nil
		}
		if p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' {
			return 0, false, fmt.Errorf("%q is not a date: %w", s, ErrField)
		}
		return int(p[0]-'0')*10 + int(p[1]-'0'), false, nil
	}
	var d Date
	var err error
	if d.Year, _, err = num(s[0:2], false); err != nil {
		return d, err
	}
	var unknownMonth bool
	if d.Month, unknownMonth, err = num(s[2:4], birth); err != nil {
		return d, err
	}
	if d.Day, _, err = num(s[4:6], birth); err != nil {
		return d, err
	}
	if unknownMonth && d.Day != 0 {
		return d, fmt.Errorf("%q: a day without a month: %w", s, ErrField)
	}
	if !unknownMonth && (d.Month < 1 || d.Month > 12) {
		return d, fmt.Errorf("%q: month %d: %w", s, d.Month, ErrField)
	}
	if s[4:6] != "<<" && (d.Day < 1 || d.Day > daysIn(d.Year, d.Month)) {
		return d, fmt.Errorf("%q: day %d: %w", s, d.Day, ErrField)
	}
	return d, nil
}

// daysIn is the length of the month; with a two-digit year, February has 29
// days in every year divisible by 4 (2000 was a leap year, 1900 was not, and
// the zone does not say which century).
func daysIn(yy, month int) int {
	switch month {
	case 2:
		if yy%4 == 0 {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
