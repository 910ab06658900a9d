package license

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Printed is what the front of a card prints in its personal-data zone,
// as read (by OCR) and split by field label: the raw text of each field,
// "" when its label was not found. Conf is the reader's confidence in each
// field (0–100, the lowest of its words); a read below MinConfidence can
// never make a field a mismatch.
type Printed struct {
	DocumentNumber Read `json:"document_number"`
	LastName       Read `json:"last_name"`
	FirstName      Read `json:"first_name"`
	DOB            Read `json:"date_of_birth"`
	ExpiryDate     Read `json:"expiry_date"`
	IssueDate      Read `json:"issue_date"`
}

// Read is one field's text and the reader's confidence in it (its
// weakest word's). Chars, when the reader gives them, are its characters
// with their alternative readings: a field whose every character may be
// the barcode's is not a mismatch, however the reader chose, and one
// character confidently read as something else is, however weak the rest.
type Read struct {
	Text  string  `json:"text"`
	Conf  float64 `json:"conf"`
	Chars []Char  `json:"chars,omitempty"`
}

// fit compares want (already folded) with r's characters position by
// position, each character's alternatives folded the same way and
// characters that fold to nothing (separators) skipped. ok: every
// position may be want's. sure: the lengths agree, a position that cannot
// be want's was read at MinConfidence or more, and either the whole read
// is confident or the other positions read as want's (at most a quarter
// differ): a disagreement no misread explains. Character confidences of
// a word the reader doubts as a whole (smudged print) are not trusted
// alone.
func fit(want string, r Read, fold func(string) string) (ok, sure bool) {
	ok, sure, _ = fitDiffs(want, r, fold)
	return ok, sure
}

// fitDiffs is fit with the number of differing positions (-1 when the
// lengths differ).
func fitDiffs(want string, r Read, fold func(string) string) (ok, sure bool, diffs int) {
	if len(r.Chars) == 0 || len(r.Chars) > 4*MaxFrontWords {
		return false, false, -1
	}
	i, confident := 0, false
	for _, c := range r.Chars {
		set := fold(c.Alts)
		if set == "" {
			continue
		}
		if i < len(want) && !strings.ContainsRune(set, rune(want[i])) {
			diffs++
			confident = confident || c.Conf >= MinConfidence
		}
		i++
	}
	if i != len(want) {
		return false, false, -1
	}
	if diffs == 0 {
		return true, false, 0
	}
	return false, confident && (r.Conf >= MinConfidence || 4*diffs <= len(want)), diffs
}

// MinConfidence is the OCR confidence (0–100) below which a read that
// disagrees with the barcode is unreadable rather than a mismatch: a
// misread must never accuse a genuine card. Tesseract gives its clean
// synthetic reads 90–96 and the blurred or glared ones that still read
// right 70–90 (bench/document).
const MinConfidence = 60

// FieldOutcome is the comparison of one field.
type FieldOutcome string

// Field outcomes.
const (
	FieldMatch      FieldOutcome = "match"
	FieldMismatch   FieldOutcome = "mismatch"
	FieldUnreadable FieldOutcome = "unreadable" // not found on the front, or not confidently read
	// FieldNotCompared: the barcode does not carry the value (issue
	// date, on some cards), or the front does not print an optional one.
	FieldNotCompared FieldOutcome = "not_compared"
)

// FrontMatch is the result of CompareFront.
type FrontMatch struct {
	// Result is match, mismatch or unreadable (FieldOutcome values).
	Result FieldOutcome `json:"result"`
	// Fields holds each compared field's outcome.
	Fields FrontFields `json:"fields"`
}

// FrontFields are the per-field outcomes, named as in the result.
type FrontFields struct {
	DocumentNumber FieldOutcome `json:"document_number"`
	LastName       FieldOutcome `json:"last_name"`
	FirstName      FieldOutcome `json:"first_name"`
	DOB            FieldOutcome `json:"date_of_birth"`
	ExpiryDate     FieldOutcome `json:"expiry_date"`
	IssueDate      FieldOutcome `json:"issue_date"`
}

// CompareFront checks the printed front against the barcode. The overall
// result is mismatch when any field is a confident mismatch; match when the
// five fields every card prints (number, last and first name, birth and
// expiry dates) all match and the issue date, where both sides carry it,
// does not disagree; unreadable otherwise. Normalisations (real cards need
// them): case, diacritics, spacing and punctuation; in numbers the
// O/0, I/1/L, S/5, B/8 and Z/2 confusions; dates in the US, Canadian and
// ISO layouts, with month names; names truncated on the card (a prefix of
// at least minTruncated letters) or carrying the middle names.
func CompareFront(l License, p Printed) FrontMatch {
	m := FrontMatch{Fields: FrontFields{
		DocumentNumber: compareNumber(l.DocumentNumber, p.DocumentNumber),
		LastName:       compareName(l.LastName, "", p.LastName),
		FirstName:      compareName(l.FirstNames, l.MiddleNames, p.FirstName),
		DOB:            compareDate(l.DOB, l.Country, p.DOB),
		ExpiryDate:     compareDate(l.ExpiryDate, l.Country, p.ExpiryDate),
		IssueDate:      compareOptionalDate(l.IssueDate, l.Country, p.IssueDate),
	}}
	f := m.Fields
	all := []FieldOutcome{f.DocumentNumber, f.LastName, f.FirstName, f.DOB, f.ExpiryDate, f.IssueDate}
	m.Result = FieldMatch
	for _, o := range all {
		if o == FieldMismatch {
			m.Result = FieldMismatch
			return m
		}
	}
	for _, o := range all[:5] {
		if o != FieldMatch {
			m.Result = FieldUnreadable
		}
	}
	return m
}

// disagree is a mismatch when the read is confident, else unreadable.
func disagree(r Read) FieldOutcome {
	if !(r.Conf >= MinConfidence) { // NaN too
		return FieldUnreadable
	}
	return FieldMismatch
}

// disagreeChars is the outcome of a read that is not want: a match when
// its characters' alternatives allow want, a mismatch when a character is
// confidently something else, else as the read's confidence says.
func disagreeChars(r Read, want string, fold func(string) string) FieldOutcome {
	switch ok, sure := fit(want, r, fold); {
	case ok:
		return FieldMatch
	case sure:
		return FieldMismatch
	}
	return disagree(r)
}

// compareNumber compares document numbers as alphanumerics with the
// confusable characters folded together.
func compareNumber(barcode string, r Read) FieldOutcome {
	want, got := foldNumber(barcode), foldNumber(r.Text)
	switch {
	case want == "":
		return FieldNotCompared
	case got == "":
		return FieldUnreadable
	case got == want:
		return FieldMatch
	}
	return disagreeChars(r, want, foldNumber)
}

// foldNumber keeps letters and digits, upper-cased, with O/Q/D→0,
// I/L/J/|→1, S→5, B→8, Z→2 and G→6: the pairs OCR and people confuse in
// printed numbers. Both sides are folded, so a letter the barcode really
// has compares equal to its printed self.
func foldNumber(s string) string {
	var b strings.Builder
	for _, r := range FoldLatin(s) {
		switch r {
		case 'O', 'Q', 'D':
			r = '0'
		case 'I', 'L', 'J', '|':
			r = '1'
		case 'S':
			r = '5'
		case 'B':
			r = '8'
		case 'Z':
			r = '2'
		case 'G':
			r = '6'
		}
		if r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// minTruncated is the shortest printed name accepted as a truncation of
// the barcode's: cards cut names to fit the line, never to a couple of
// letters.
const minTruncated = 5

// compareName compares names as letters only (spaces, hyphens and
// apostrophes dropped, diacritics removed). The printed name matches when
// it equals the barcode's name, the name plus the extra (the middle
// names, which cards print on the first-name line), or a truncation of
// either of at least minTruncated letters.
func compareName(name, extra string, r Read) FieldOutcome {
	want := foldName(name)
	got := foldName(r.Text)
	switch {
	case want == "":
		return FieldNotCompared
	case got == "":
		return FieldUnreadable
	}
	full := want + foldName(extra)
	for _, w := range []string{want, full} {
		if got == w || len(got) >= minTruncated && strings.HasPrefix(w, got) {
			return FieldMatch
		}
	}
	// The barcode truncated a name the card prints whole (DDE/DDF "T").
	if len(want) >= minTruncated && strings.HasPrefix(got, want) {
		return FieldMatch
	}
	if ok, _ := fit(full, r, foldName); ok {
		return FieldMatch
	}
	return disagreeChars(r, want, foldName)
}

// foldName keeps the letters of s, upper-cased and without diacritics.
func foldName(s string) string {
	var b strings.Builder
	for _, r := range FoldLatin(s) {
		if r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// FoldLatin upper-cases s and removes the diacritics of the Latin-1 and
// Latin Extended-A letters names use (É→E, Ñ→N, Ø→O, ß→SS, Æ→AE).
func FoldLatin(s string) string {
	var b strings.Builder
	for _, r := range s {
		r = unicode.ToUpper(r)
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		if f, ok := latinFold[r]; ok {
			b.WriteString(f)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// latinFold maps accented capitals to their base letters.
var latinFold = func() map[rune]string {
	m := map[rune]string{'ß': "SS", 'ẞ': "SS", 'Æ': "AE", 'Œ': "OE", 'Ø': "O", 'Đ': "D", 'Ł': "L", 'Þ': "TH", 'Ð': "D"}
	groups := map[string]string{
		"A": "ÀÁÂÃÄÅĀĂĄ", "C": "ÇĆĈĊČ", "D": "Ď", "E": "ÈÉÊËĒĔĖĘĚ", "G": "ĜĞĠĢ", "H": "ĤĦ",
		"I": "ÌÍÎÏĨĪĬĮİ", "J": "Ĵ", "K": "Ķ", "L": "ĹĻĽĿ", "N": "ÑŃŅŇ", "O": "ÒÓÔÕÖŌŎŐ",
		"R": "ŔŖŘ", "S": "ŚŜŞŠ", "T": "ŢŤŦ", "U": "ÙÚÛÜŨŪŬŮŰŲ", "W": "Ŵ", "Y": "ÝŶŸ", "Z": "ŹŻŽ",
	}
	for base, letters := range groups {
		for _, r := range letters {
			m[r] = base
		}
	}
	return m
}()

// compareOptionalDate is compareDate for a date a card need not print.
func compareOptionalDate(want Date, country string, r Read) FieldOutcome {
	if want.IsZero() || strings.TrimSpace(r.Text) == "" {
		return FieldNotCompared
	}
	return compareDate(want, country, r)
}

// compareDate reads the printed date in the layouts cards use and
// compares it with the barcode's.
func compareDate(want Date, country string, r Read) FieldOutcome {
	if want.IsZero() {
		return FieldNotCompared
	}
	cands := printedDates(r.Text, country)
	for _, d := range cands {
		if d == want {
			return FieldMatch
		}
	}
	// The layouts' digits, for the characters' alternatives.
	layouts := []string{want.format8(orderMDY), want.format8(orderYMD)}
	if dayFirst(country) {
		layouts = append(layouts, fmt.Sprintf("%02d%02d%04d", want.Day, int(want.Month), want.Year))
	}
	// Sure of a difference as judged in the layout the read is closest to.
	sure, best := false, -1
	for _, l := range layouts {
		ok, s, diffs := fitDiffs(l, r, foldNumber)
		if ok {
			return FieldMatch
		}
		if diffs >= 0 && (best < 0 || diffs < best) {
			sure, best = s, diffs
		}
	}
	if len(cands) == 0 {
		return FieldUnreadable
	}
	if sure {
		return FieldMismatch
	}
	return disagree(r)
}

// monthNames are the abbreviated months cards and data pages print:
// English and French, and German, Spanish, Italian, Dutch and Portuguese
// (a data page's "12 AGO/AUG 1974"; the first month name read counts). No
// abbreviation names two months.
var monthNames = map[string]int{
	"JAN": 1, "FEB": 2, "FEV": 2, "MAR": 3, "APR": 4, "AVR": 4, "MAY": 5, "MAI": 5, "JUN": 6, "JUIN": 6,
	"JUL": 7, "JUIL": 7, "AUG": 8, "AOU": 8, "SEP": 9, "SEPT": 9, "OCT": 10, "NOV": 11, "DEC": 12,
	// German, Spanish, Italian, Dutch, Portuguese.
	"MRZ": 3, "OKT": 10, "DEZ": 12,
	"ENE": 1, "ABR": 4, "AGO": 8, "DIC": 12,
	"GEN": 1, "MAG": 5, "GIU": 6, "LUG": 7, "SET": 9, "OTT": 10,
	"MRT": 3, "MEI": 5,
	"OUT": 10,
}

// dayFirst tells the issuers whose cards may print numeric dates day
// first (DD.MM.YYYY): Canada's licenses, and every country's ID card or
// passport (country: its ICAO code) but the United States', the one
// issuer writing the month first. A license without a country keeps the
// US and ISO readings only.
func dayFirst(country string) bool { return country != "USA" && country != "" }

// printedDates is every valid date s can be read as: its digits (with
// O/0, I/1, S/5, B/8 folded) as MMDDYYYY or YYYYMMDD — DDMMYYYY too where
// dayFirst — or MMDDYY (DDMMYY too where dayFirst), or a day, a month name
// and a year. Several readings are returned when the layout is ambiguous.
func printedDates(s, country string) []Date {
	s = FoldLatin(s)
	if len(s) > 64 {
		return nil
	}
	var digits strings.Builder
	mon, named := 0, false
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return !isAlnum(r) }) {
		if m, ok := monthNames[tok]; ok && !named {
			mon, named = m, true
			continue
		}
		if strings.IndexFunc(tok, func(r rune) bool { return r >= '0' && r <= '9' }) < 0 {
			continue // a label or a stray word, not a date part
		}
		for _, r := range tok {
			switch r {
			case 'O', 'Q', 'D':
				r = '0'
			case 'I', 'L', '|':
				r = '1'
			case 'S':
				r = '5'
			case 'B':
				r = '8'
			}
			if r >= '0' && r <= '9' {
				digits.WriteRune(r)
			}
		}
	}
	d := digits.String()
	var out []Date
	add := func(y, m, day int) {
		if c := (Date{y, time.Month(m), day}); c.valid() {
			out = append(out, c)
		}
	}
	if named {
		// "15 JAN 1990", "JAN 15 1990", "1990 JAN 15": digits are the
		// day and year in either order.
		if len(d) >= 5 && len(d) <= 6 {
			add(atoi(d[len(d)-4:]), mon, atoi(d[:len(d)-4]))
			add(atoi(d[:4]), mon, atoi(d[4:]))
		}
		return out
	}
	switch len(d) {
	case 8:
		add(atoi(d[4:]), atoi(d[:2]), atoi(d[2:4]))
		add(atoi(d[:4]), atoi(d[4:6]), atoi(d[6:]))
		if dayFirst(country) {
			add(atoi(d[4:]), atoi(d[2:4]), atoi(d[:2]))
		}
	case 6:
		// MMDDYY: the century is the one that makes a plausible date;
		// both are offered, the comparison picks.
		for _, c := range []int{1900, 2000} {
			add(c+atoi(d[4:]), atoi(d[:2]), atoi(d[2:4]))
			if dayFirst(country) {
				add(c+atoi(d[4:]), atoi(d[2:4]), atoi(d[:2]))
			}
		}
	}
	return out
}

func isAlnum(r rune) bool { return r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r == '|' }

func atoi(s string) int {
	n := 0
	for i := range len(s) {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
