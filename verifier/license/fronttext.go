package license

import (
	"math"
	"strings"
)

// Word is one word an OCR engine read, with its confidence (0–100) and
// the index of its line (words in reading order).
type Word struct {
	Text string
	Conf float64
	Line int
	// X0 and X1 are the word's left and right edges in the image read,
	// pixels (both 0 when the engine gives none): a row of fields side by
	// side is split by the columns its captions start.
	X0, X1 int
	// Chars are the word's characters as the engine saw them, with their
	// alternative readings; nil when the engine gives none.
	Chars []Char
}

// Char is one printed character as read: the characters its glyph may be
// (the chosen one first) and the reader's confidence (0–100) in the
// chosen one.
type Char struct {
	Alts string  `json:"a"`
	Conf float64 `json:"c"`
}

// MaxFrontWords bounds what ReadPrinted looks at: a card's personal-data
// zone holds a few dozen words.
const MaxFrontWords = 400

// frontField is where a label's value goes; fieldOther is a label of a
// field that is not compared (address, class, sex…), which ends the value
// before it.
type frontField int

const (
	fieldNone frontField = iota
	fieldNumber
	fieldLast
	fieldFirst
	fieldDOB
	fieldIssue
	fieldExpiry
	fieldOther
)

// The card's field labels. AAMVA cards (DL/ID Card Design Standard 2020,
// after ISO/IEC 18013-1) number their fields — 1 family name, 2 given
// names, 3 date of birth, 4a issue, 4b expiry, 4d license number — and
// most also print a word label beside the number.
var (
	numberLabels = map[string]frontField{
		"1": fieldLast, "2": fieldFirst, "3": fieldDOB, "4A": fieldIssue, "4B": fieldExpiry, "4D": fieldNumber,
		"4C": fieldOther, "5": fieldOther, "8": fieldOther, "9": fieldOther, "9A": fieldOther, "12": fieldOther,
		"15": fieldOther, "16": fieldOther, "17": fieldOther, "18": fieldOther, "19": fieldOther,
	}
	wordLabels = map[string]frontField{
		"DLN": fieldNumber, "DL": fieldNumber, "LIC": fieldNumber, "LICNO": fieldNumber, "IDN": fieldNumber, "DLNO": fieldNumber,
		"LN": fieldLast, "LAST": fieldLast, "FN": fieldFirst, "FIRST": fieldFirst,
		"DOB": fieldDOB, "ISS": fieldIssue, "EXP": fieldExpiry, "EXPIRES": fieldExpiry,
		"DD": fieldOther, "SEX": fieldOther, "HGT": fieldOther, "WGT": fieldOther, "EYES": fieldOther, "HAIR": fieldOther,
		"CLASS": fieldOther, "END": fieldOther, "REST": fieldOther, "RSTR": fieldOther,
	}
)

// ReadPrinted splits the words read in a card's personal-data zone into
// fields by their labels. A number label counts at the start of a line or
// before a word label (so the "1" of "1 MAIN ST" is not a name); a value
// runs from its label to the next label or the end of the line; the first
// value of each field wins. A field's confidence is its lowest word's.
func ReadPrinted(words []Word) Printed {
	if len(words) > MaxFrontWords {
		words = words[:MaxFrontWords]
	}
	words = unglue(words)
	var p Printed
	cur, line := fieldNone, -1
	var text []string
	var chars []Char
	conf := math.Inf(1)
	flush := func() {
		if cur != fieldNone && cur != fieldOther && len(text) > 0 {
			if r := p.slot(cur); r.Text == "" {
				*r = Read{Text: strings.Join(text, " "), Conf: conf, Chars: chars}
			}
		}
		text, chars, conf = nil, nil, math.Inf(1)
	}
	for i, w := range words {
		if w.Line != line {
			flush()
			cur, line = fieldNone, w.Line
		}
		tok := strings.ToUpper(strings.Trim(w.Text, ":.#,;"))
		if tok == "" {
			continue
		}
		start := i == 0 || words[i-1].Line != w.Line
		next := ""
		if i+1 < len(words) && words[i+1].Line == w.Line {
			next = strings.ToUpper(strings.Trim(words[i+1].Text, ":.#,;"))
		}
		if f, ok := numberLabels[tok]; ok && (start || wordLabels[next] != fieldNone) {
			flush()
			cur = f
			if wf := wordLabels[next]; wf != fieldNone && wf != f && f != fieldOther {
				cur = wf
			}
			continue
		}
		if f, ok := wordLabels[tok]; ok {
			// A word label right after its number label continues it.
			if len(text) > 0 || cur == fieldNone || cur == fieldOther || f != cur {
				flush()
				cur = f
			}
			continue
		}
		if cur == fieldNone {
			continue
		}
		text = append(text, w.Text)
		chars = append(chars, w.Chars...)
		conf = min(conf, w.Conf)
	}
	flush()
	return p
}

// unglue splits a line's first word that is a number label glued to its
// value ("2LI", "1SAMPLE", "4dDLN"): OCR drops the narrow space after a
// short label.
func unglue(words []Word) []Word {
	var out []Word
	for i, w := range words {
		if i == 0 || words[i-1].Line != w.Line {
			if label, rest, ok := gluedLabel(w.Text); ok {
				chars := w.Chars
				if len(chars) == len(w.Text) {
					chars = chars[len(label):]
				} else {
					chars = nil
				}
				out = append(out, Word{Text: label, Conf: w.Conf, Line: w.Line},
					Word{Text: rest, Conf: w.Conf, Line: w.Line, Chars: chars})
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// gluedLabel splits s into a number label and a value starting with a
// letter, when s is no label itself.
func gluedLabel(s string) (label, rest string, ok bool) {
	up := strings.ToUpper(s)
	if _, isLabel := numberLabels[up]; isLabel {
		return "", "", false
	}
	for _, n := range []int{2, 1} {
		if len(up) <= n {
			continue
		}
		if _, isLabel := numberLabels[up[:n]]; isLabel && up[n] >= 'A' && up[n] <= 'Z' {
			return s[:n], s[n:], true
		}
	}
	return "", "", false
}

func (p *Printed) slot(f frontField) *Read {
	switch f {
	case fieldNumber:
		return &p.DocumentNumber
	case fieldLast:
		return &p.LastName
	case fieldFirst:
		return &p.FirstName
	case fieldDOB:
		return &p.DOB
	case fieldIssue:
		return &p.IssueDate
	}
	return &p.ExpiryDate
}
