package mrz

import (
	"slices"
	"strings"
	"testing"
)

// TestNameFields: names read in a visual zone spelt as the zone spells
// them (Doc 9303 Part 3: upper case, diacritics dropped, Ä/Ö/Ü/Å/Ñ every
// way the table allows, Ø as OE, a hyphen or space a filler, an
// apostrophe left out), filled to the field; nothing for names the field
// would truncate, a character with no spelling in A-Z, or no surname.
func TestNameFields(t *testing.T) {
	pad := func(s string, n int) string { return s + strings.Repeat("<", n-len(s)) }
	for _, tc := range []struct {
		surname, given string
		f              Format
		want           []string
	}{
		{"Eriksson", "Anna Maria", TD3, []string{pad("ERIKSSON<<ANNA<MARIA", 39)}},
		{"O'Brien-Smith", "Séan", TD1, []string{pad("OBRIEN<SMITH<<SEAN", 30)}},
		{"MÜLLER", "", TD3, []string{pad("MUELLER", 39), pad("MUXXLLER", 39), pad("MULLER", 39)}},
		{"Åström", "Jørgen", TD3, []string{pad("AASTROEM<<JOERGEN", 39), pad("AASTROM<<JOERGEN", 39), pad("ASTROEM<<JOERGEN", 39), pad("ASTROM<<JOERGEN", 39)}},
		{"GARCÍA - PEÑA", "José", TD3, []string{pad("GARCIA<PENA<<JOSE", 39), pad("GARCIA<PENXXA<<JOSE", 39)}},
		{"WOLFESCHLEGELSTEINHAUSENBERGER", "HUBERT BLAINE", TD3, nil}, // 45 of 39: truncated
		{"SM1TH", "JOHN", TD3, nil},
		{"", "JOHN", TD3, nil},
		{"ÄÖÜÄ", "ÜÖ", TD3, nil}, // 2·2·3·2 · 3·2 spellings
	} {
		if got := NameFields(tc.f, tc.surname, tc.given); !slices.Equal(got, tc.want) {
			t.Errorf("%q, %q: %q, want %q", tc.surname, tc.given, got, tc.want)
		}
	}
}
