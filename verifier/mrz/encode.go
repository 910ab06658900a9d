package mrz

import (
	"fmt"
	"strings"
)

// Encode writes m's fields as a zone of m.Format with every check digit
// computed: the generator of synthetic zones for tests and rendered data
// pages. Names longer than the field are cut (Part 3, 4.6 truncates the
// same way, without its finer rules); other fields too long are an error.
// Lines, Corrected and the derived parts of m are ignored.
func Encode(m MRZ) ([]string, error) {
	var l *layout
	switch m.Format {
	case TD3:
		l = &td3
	case TD1:
		l = &td1
	default:
		return nil, fmt.Errorf("mrz: encode format %d: %w", m.Format, ErrFormat)
	}
	// What Parse would refuse is not written either.
	for _, c := range []string{m.IssuingState, m.Nationality} {
		if c != "" && !IsCode(c) {
			return nil, fmt.Errorf("mrz: encode %q: no ISO 3166 or ICAO code: %w", c, ErrField)
		}
	}
	lines := make([][]byte, l.lines)
	for i := range lines {
		lines[i] = []byte(strings.Repeat("<", l.width))
	}
	put := func(s span, v string) error {
		v = strings.ReplaceAll(strings.ToUpper(v), " ", "<")
		if len(v) > s.n {
			return fmt.Errorf("mrz: encode %q: longer than %d: %w", v, s.n, ErrField)
		}
		for i := 0; i < len(v); i++ {
			if _, ok := charValue(v[i]); !ok {
				return fmt.Errorf("mrz: encode %q: character %q: %w", v, v[i], ErrFormat)
			}
		}
		copy(lines[s.line][s.start:], v)
		return nil
	}
	check := func(s span, of string) {
		d, _ := CheckDigit(of)
		lines[s.line][s.start] = d
	}
	name := strings.ReplaceAll(m.Surname, " ", "<") + "<<" + strings.ReplaceAll(m.GivenNames, " ", "<")
	name = name[:min(len(name), l.names.n)]
	optional := m.OptionalData
	number := m.DocumentNumber
	if m.Format == TD1 && len(number) > l.number.n {
		// Part 5, 4.2.2 note j: the tail and its check digit open the optional data.
		d, _ := CheckDigit(number)
		optional = number[l.number.n:] + string(d) + "<" + optional
		number = number[:l.number.n]
	}
	for _, f := range []struct {
		s span
		v string
	}{{l.code, m.DocumentCode}, {l.state, m.IssuingState}, {l.names, name}, {l.number, number},
		{l.nationality, m.Nationality}, {l.birth, m.BirthDate.String()}, {l.sex, m.Sex},
		{l.expiry, m.ExpiryDate.String()}, {l.optional, optional}, {l.optional2, m.OptionalData2}} {
		if f.s.n == 0 && f.v == "" {
			continue
		}
		if err := put(f.s, f.v); err != nil {
			return nil, err
		}
	}
	if m.Format == TD1 && len(m.DocumentNumber) > l.number.n {
		lines[l.numberCheck.line][l.numberCheck.start] = '<'
	} else {
		check(l.numberCheck, l.number.of(lines))
	}
	check(l.birthCheck, l.birth.of(lines))
	check(l.expiryCheck, l.expiry.of(lines))
	if l.optionalCheck.n > 0 {
		check(l.optionalCheck, l.optional.of(lines))
	}
	var comp strings.Builder
	for _, c := range l.compositeOf {
		comp.WriteString(c.of(lines))
	}
	check(l.composite, comp.String())
	out := make([]string, len(lines))
	for i, line := range lines {
		out[i] = string(line)
	}
	return out, nil
}

// String is the date as the zone prints it, YYMMDD, unknown parts '<<'.
func (d Date) String() string {
	part := func(v int) string {
		if v == 0 {
			return "<<"
		}
		return fmt.Sprintf("%02d", v)
	}
	return fmt.Sprintf("%02d", d.Year) + part(d.Month) + part(d.Day)
}
