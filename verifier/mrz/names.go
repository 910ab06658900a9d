package mrz

import (
	"strings"
	"unicode"

	"github.com/idgate/idgate/verifier/license"
)

// NameField is where a zone of format f keeps the names: its line, first
// column and width (TD3: line 0 from column 5, 39 wide; TD1: line 2, 30).
func NameField(f Format) (line, start, n int) {
	l := of(f)
	if l == nil {
		return 0, 0, 0
	}
	return l.names.line, l.names.start, l.names.n
}

// icaoLetters are the letters Doc 9303 Part 3, 6 (Table A, the
// transliteration of multinational Latin characters) writes otherwise
// than with their base letter (license.FoldLatin's), each with every
// spelling the table allows: an issuer chooses one (a German Ü is UE, a
// Swede's Å may be AA or A), so a name read in a visual zone may be
// written any of these ways in the zone. Ø is OE there, where FoldLatin
// folds it to O.
var icaoLetters = map[rune][]string{
	'Ä': {"AE", "A"}, 'Å': {"AA", "A"}, 'Æ': {"AE"}, 'Ñ': {"N", "NXX"}, 'Ö': {"OE", "O"},
	'Ø': {"OE"}, 'Ü': {"UE", "UXX", "U"}, 'ß': {"SS"}, 'ẞ': {"SS"}, 'Þ': {"TH"}, 'Ĳ': {"IJ"}, 'Œ': {"OE"},
}

// maxNameSpellings bounds the spellings NameFields answers: a name with
// more letters of several spellings is left unsettled (nil) rather than
// tried every way.
const maxNameSpellings = 16

// NameFields is the names field of a format-f zone, as the zone would
// print a surname and given names read elsewhere (the data page's visual
// zone), once per spelling Doc 9303 Part 3 allows (icaoLetters): upper
// case, diacritics dropped, a space, hyphen or comma a filler (runs of
// them one filler), an apostrophe left out (Part 3, 4.6); the surname,
// two fillers and the given names, filled to the field's width. Nil when
// the names do not fit the field (the zone then truncates them, by rules
// no second reading can hold a cell to), a character has no
// transliteration in A-Z, the surname is empty, or there would be more
// than maxNameSpellings spellings.
func NameFields(f Format, surname, given string) []string {
	_, _, n := NameField(f)
	sur, giv := nameSpellings(surname), nameSpellings(given)
	if n == 0 || len(sur) == 0 || len(giv) == 0 || len(sur)*len(giv) > maxNameSpellings {
		return nil
	}
	var out []string
	for _, s := range sur {
		if s == "" {
			return nil
		}
		for _, g := range giv {
			field := s
			if g != "" {
				field += "<<" + g
			}
			if len(field) > n {
				return nil
			}
			out = append(out, field+strings.Repeat("<", n-len(field)))
		}
	}
	return out
}

// nameSpellings is one name component (a surname, or the given names) as
// the zone may spell it: the empty string alone for an empty name; nil
// for a character outside the table or too many spellings.
func nameSpellings(name string) []string {
	out := []string{""}
	filler := false
	for _, r := range strings.TrimSpace(name) {
		var ways []string
		switch {
		case r == ' ' || r == '-' || r == ',':
			filler = true
			continue
		case r == '\'' || r == '’':
			continue
		case icaoLetters[unicode.ToUpper(r)] != nil:
			ways = icaoLetters[unicode.ToUpper(r)]
		default:
			w := license.FoldLatin(string(r))
			if len(w) == 0 || strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
				return nil
			}
			ways = []string{w}
		}
		if len(out)*len(ways) > maxNameSpellings {
			return nil
		}
		var next []string
		for _, o := range out {
			if filler && o != "" {
				o += "<"
			}
			for _, w := range ways {
				next = append(next, o+w)
			}
		}
		out, filler = next, false
	}
	return out
}
