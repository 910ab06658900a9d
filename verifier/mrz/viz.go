package mrz

import (
	"math"
	"slices"
	"strings"

	"github.com/idgate/idgate/verifier/license"
)

// vizField is where a caption's value goes: a field of license.Printed, or
// vizOther for a caption whose value is not compared (nationality, sex,
// place of birth, issue date, authority).
type vizField int

const (
	vizNone vizField = iota
	vizNumber
	vizLast
	vizFirst
	vizDOB
	vizExpiry
	vizIssue // a date not compared: counted among a row's dates
	vizOther
)

// vizCaptions are the words of the visual inspection zone's captions
// (Doc 9303 Part 4, zone II, and Part 5 for the front of an ID card: the
// issuer's language and English or French, "Surname / Nom"), folded to
// capitals without diacritics (license.FoldLatin). A line holding one (or
// a numberNoun beside its number word) is a caption; the first such word
// on it decides which. Besides English and French, the captions data
// pages and cards print in German, Spanish, Italian, Dutch and Portuguese,
// whose cards often print their own language alone (a Spanish card's
// "APELLIDOS", "NOMBRE", "VALIDEZ"). Words of a field that is not compared
// are listed too, so that "Lugar de nacimiento" is a place, not a birth
// date, and "Geburtsname" not the surname. A card number that is not the
// zone's document number is never a number caption: Spain's "DNI" is the
// holder's personal number, the zone's is the card's "NÚM SOPORT"; nor is
// a word that also captions another date ("Valid from" is an issue date).
var vizCaptions = map[string]vizField{
	// English and French.
	"PASSPORT": vizNumber, "PASSEPORT": vizNumber,
	"SURNAME": vizLast, "NOM": vizLast,
	"GIVEN": vizFirst, "FIRST": vizFirst, "PRENOMS": vizFirst, "PRENOM": vizFirst,
	"BIRTH": vizDOB, "NAISSANCE": vizDOB,
	"EXPIRY": vizExpiry, "EXPIRATION": vizExpiry, "EXPIRES": vizExpiry,
	"NATIONALITY": vizOther, "NATIONALITE": vizOther, "SEX": vizOther, "SEXE": vizOther, "ISSUE": vizIssue,
	"DELIVRANCE": vizIssue, "AUTHORITY": vizOther, "AUTORITE": vizOther, "PLACE": vizOther, "LIEU": vizOther,
	"TYPE": vizOther, "CODE": vizOther, "HEIGHT": vizOther, "TAILLE": vizOther,
	// German.
	"REISEPASS": vizNumber, "PASSNR": vizNumber, "AUSWEISNUMMER": vizNumber, "DOKUMENTENNUMMER": vizNumber,
	"NAME": vizLast, "FAMILIENNAME": vizLast, "NACHNAME": vizLast, "VORNAMEN": vizFirst, "VORNAME": vizFirst,
	// "Gültig bis" (valid until): the English model read the 1.6 mm
	// caption's "Gültig" as "Gilltig" (TestIDCardFrontVIZLanguages), so
	// "bis" names it too.
	"GEBURTSDATUM": vizDOB, "GEBURTSTAG": vizDOB, "GULTIG": vizExpiry, "BIS": vizExpiry, "ABLAUFDATUM": vizExpiry,
	"GEBURTSNAME": vizOther, "GEBURTSORT": vizOther, "STAATSANGEHORIGKEIT": vizOther, "GESCHLECHT": vizOther,
	"AUSSTELLUNGSDATUM": vizIssue, "BEHORDE": vizOther, "GROSSE": vizOther, "TYP": vizOther,
	// Spanish.
	"PASAPORTE": vizNumber, "SOPORT": vizNumber, "SOPORTE": vizNumber,
	"APELLIDOS": vizLast, "APELLIDO": vizLast, "NOMBRE": vizFirst, "NOMBRES": vizFirst,
	"NACIMIENTO": vizDOB, "CADUCIDAD": vizExpiry, "VALIDEZ": vizExpiry,
	"LUGAR": vizOther, "NACIONALIDAD": vizOther, "SEXO": vizOther, "EXPEDICION": vizIssue, "AUTORIDAD": vizOther,
	"ALTURA": vizOther, "TIPO": vizOther,
	// Italian.
	"PASSAPORTO": vizNumber, "COGNOME": vizLast, "NOME": vizFirst, "NOMI": vizFirst,
	"NASCITA": vizDOB, "SCADENZA": vizExpiry,
	"LUOGO": vizOther, "CITTADINANZA": vizOther, "NAZIONALITA": vizOther, "SESSO": vizOther, "RILASCIO": vizIssue,
	"AUTORITA": vizOther, "STATURA": vizOther,
	// Dutch.
	"PASPOORTNUMMER": vizNumber, "DOCUMENTNUMMER": vizNumber,
	"NAAM": vizLast, "ACHTERNAAM": vizLast, "VOORNAMEN": vizFirst, "VOORNAAM": vizFirst,
	"GEBOORTEDATUM": vizDOB, "GELDIG": vizExpiry, "VERVALDATUM": vizExpiry,
	"GEBOORTEPLAATS": vizOther, "NATIONALITEIT": vizOther, "GESLACHT": vizOther, "AFGIFTE": vizIssue,
	"AUTORITEIT": vizOther, "LENGTE": vizOther, "SOORT": vizOther,
	// Portuguese.
	"PASSAPORTE": vizNumber, "APELIDOS": vizLast, "APELIDO": vizLast, "SOBRENOME": vizLast, "NOMES": vizFirst,
	"NASCIMENTO": vizDOB, "VALIDADE": vizExpiry,
	"LOCAL": vizOther, "NACIONALIDADE": vizOther, "EMISSAO": vizIssue, "AUTORIDADE": vizOther,
}

// ReadVIZ splits the words OCR read in a data page's visual inspection
// zone into the printed fields front_barcode_match compares: a caption
// line names the field whose value is the line under it (unless that line
// is a caption too); the first value of each field wins; a field's
// confidence is its lowest word's. A caption OCR did not read leaves its
// field empty (unreadable), never another field's value.
//
// A caption line naming several fields (ICAO's specimen page prints
// "Type  Code  Passport No." and "Date of issue  Date of expiry" side by
// side, and OCR reads each row as one line) has its value line split by
// the values' shapes, and its names by the columns their captions start,
// never by guessing where one name ends (rowValues).
// A date caption's value is its one date when the line holds one and
// more ("12 AUG 1974  ZE 184226 B": a personal number whose caption is
// not a field's). A number under no caption may only match (uncaptioned).
func ReadVIZ(words []license.Word) license.Printed {
	if len(words) > license.MaxFrontWords {
		words = words[:license.MaxFrontWords]
	}
	var lines [][]license.Word
	for i, w := range words {
		if i == 0 || w.Line != words[i-1].Line {
			lines = append(lines, nil)
		}
		lines[len(lines)-1] = append(lines[len(lines)-1], w)
	}
	var p license.Printed
	var pending []caption
	var loose []license.Word
	for _, line := range lines {
		if fs := captions(line); len(fs) > 0 {
			pending = fs
			continue
		}
		if len(pending) == 0 && len(line) == 1 && numberShaped(line[0].Text) && strings.ContainsAny(line[0].Text, "0123456789") {
			loose = append(loose, line[0])
		}
		for f, words := range rowValues(pending, line) {
			if slot := printedSlot(&p, f); slot != nil && slot.Text == "" {
				*slot = readOf(words)
			}
		}
		pending = nil
	}
	if p.DocumentNumber.Text == "" {
		p.DocumentNumber = uncaptioned(loose)
	}
	return p
}

// uncaptioned is the document number of a front that prints it under no
// caption (Germany's ID card): the one word alone on its line, under no
// caption, shaped like a number with a digit in it, of nine characters
// (the zone's number field) when several are; none when that leaves more
// than one. Nothing says it is the number, so it may only match: its
// confidence is 0 and it carries no characters, so license.CompareFront
// calls any disagreement unreadable, never a mismatch.
func uncaptioned(loose []license.Word) license.Read {
	var nine []license.Word
	for _, w := range loose {
		if n := len(strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, license.FoldLatin(w.Text))); n == 9 {
			nine = append(nine, w)
		}
	}
	switch {
	case len(nine) == 1:
		return license.Read{Text: nine[0].Text}
	case len(loose) == 1:
		return license.Read{Text: loose[0].Text}
	}
	return license.Read{}
}

// readOf is words as one read: their text, characters and weakest
// confidence.
func readOf(words []license.Word) license.Read {
	r := license.Read{Conf: math.Inf(1)}
	var text []string
	for _, w := range words {
		text = append(text, w.Text)
		r.Chars = append(r.Chars, w.Chars...)
		r.Conf = min(r.Conf, w.Conf)
	}
	r.Text = strings.Join(text, " ")
	return r
}

// rowValues splits a value line under captions naming fields (in their
// order) into each field's words. One field takes the whole line, but a
// date its line's one date when there is exactly one. Several fields are
// split by shape: the line's dates go to the date fields in order when
// there are as many of each; the document number is the one word shaped
// like one (six or more letters and digits) outside the dates. A name
// has no shape that tells where it ends: beside another field it takes
// the words of its caption's column (columns), and is left unread when
// OCR gave no word edges.
func rowValues(caps []caption, line []license.Word) map[vizField][]license.Word {
	dates := dateSpans(line)
	isDate := func(f vizField) bool { return f == vizDOB || f == vizExpiry || f == vizIssue }
	out := map[vizField][]license.Word{}
	fields := make([]vizField, len(caps))
	for i, c := range caps {
		fields[i] = c.field
	}
	if len(fields) == 1 {
		out[fields[0]] = line
		if isDate(fields[0]) && len(dates) == 1 {
			out[fields[0]] = line[dates[0][0]:dates[0][1]]
		}
		return out
	}
	var dateFields []vizField
	for _, f := range fields {
		if isDate(f) {
			dateFields = append(dateFields, f)
		}
	}
	if len(dateFields) == len(dates) {
		for i, f := range dateFields {
			out[f] = line[dates[i][0]:dates[i][1]]
		}
	}
	if slices.Contains(fields, vizNumber) {
		var numbers []int
		for i, w := range line {
			if !slices.ContainsFunc(dates, func(d [2]int) bool { return i >= d[0] && i < d[1] }) && numberShaped(w.Text) {
				numbers = append(numbers, i)
			}
		}
		if len(numbers) == 1 {
			out[vizNumber] = line[numbers[0] : numbers[0]+1]
		}
	}
	for f, words := range columns(caps, line) {
		if (f == vizLast || f == vizFirst) && !slices.ContainsFunc(words, func(w license.Word) bool { return !nameShaped(w.Text) }) {
			out[f] = words
		}
	}
	return out
}

// nameShaped is a word that may be part of a name: letters, hyphens and
// apostrophes. A column's name holding anything else (a date's day, when
// the next caption's column starts left of the word naming it, "Date of
// birth" named by "birth") is left unread.
func nameShaped(s string) bool {
	s = license.FoldLatin(s)
	return s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ-'") == ""
}

// columns splits line by the columns of caps: a word is the field's whose
// caption starts last at or left of the word's middle (a row's values
// start under their captions). None when a caption or a word has no
// edges, or the captions do not stand left to right.
func columns(caps []caption, line []license.Word) map[vizField][]license.Word {
	for i, c := range caps {
		if c.x1 <= c.x0 || i > 0 && c.x0 <= caps[i-1].x0 {
			return nil
		}
	}
	out := map[vizField][]license.Word{}
	for _, w := range line {
		if w.X1 <= w.X0 {
			return nil
		}
		mid := (w.X0 + w.X1) / 2
		k := -1
		for i, c := range caps {
			if c.x0 <= mid {
				k = i
			}
		}
		if k >= 0 {
			out[caps[k].field] = append(out[caps[k].field], w)
		}
	}
	return out
}

// numberShaped is a word that may be a document number: six or more
// letters and digits (a number may have no digit; a row's type and code
// are shorter).
func numberShaped(s string) bool {
	n := 0
	for _, r := range license.FoldLatin(s) {
		if r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' {
			n++
		}
	}
	return n >= 6
}

// dateSpans are the printed dates of a value line, as [first, end) word
// ranges in order: one word of 5 or more digits split by '.', '/' or '-'
// ("12.08.1964"; digits alone may be a personal number), or three words:
// a day of one or two digits, a month (a word of letters, "AUG",
// "APR/AVR", or one or two digits) and a year of two or four digits ("12
// AUG 1974", "01 01 1980").
func dateSpans(line []license.Word) [][2]int {
	digits := func(s string) (n int, only bool) {
		only = s != ""
		for _, r := range s {
			if r >= '0' && r <= '9' {
				n++
			} else {
				only = false
			}
		}
		return n, only
	}
	var out [][2]int
	for i := 0; i < len(line); i++ {
		w := license.FoldLatin(line[i].Text)
		if n, only := digits(w); !only && n >= 5 && strings.Trim(w, "0123456789./-") == "" {
			out = append(out, [2]int{i, i + 1})
			continue
		}
		if i+2 >= len(line) {
			continue
		}
		day, month, year := w, license.FoldLatin(line[i+1].Text), license.FoldLatin(line[i+2].Text)
		dn, dOnly := digits(day)
		mn, mOnly := digits(month)
		yn, yOnly := digits(year)
		letters := mn == 0 && strings.Trim(month, "ABCDEFGHIJKLMNOPQRSTUVWXYZ/") == "" && month != ""
		if dOnly && dn <= 2 && (letters || mOnly && mn <= 2) && yOnly && (yn == 2 || yn == 4) {
			out = append(out, [2]int{i, i + 3})
			i += 2
		}
	}
	return out
}

// numberNouns are the words that name a card's number caption only with
// a number word beside them ("Card No.", "Document number", "N.º
// documento"): alone they are also the card's title ("IDENTITY CARD"),
// whose line under it is no number.
var numberNouns = map[string]bool{"CARD": true, "DOCUMENT": true, "DOCUMENTO": true, "CARTE": true, "CARTA": true, "TARJETA": true}

// numberWords are the number words beside a numberNoun ("N.º" folds to N).
var numberWords = map[string]bool{"NO": true, "NUMBER": true, "NR": true, "NUM": true, "N": true, "NUMERO": true, "NUMMER": true}

// caption is a field a caption line names, and the edges of the first
// word naming it (0, 0 when OCR gave none): where its column starts.
type caption struct {
	field  vizField
	x0, x1 int
}

// captions are the fields a line captions, each once in the order first
// named ("Date of birth  Place of birth" names the birth date, then a
// field not compared); none when it is no caption.
func captions(line []license.Word) []caption {
	toks := make([]string, len(line))
	for i, w := range line {
		toks[i] = strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' {
				return r
			}
			return -1
		}, license.FoldLatin(w.Text))
	}
	var out []caption
	for i, tok := range toks {
		f, ok := vizCaptions[tok]
		if numberNouns[tok] && (i+1 < len(toks) && numberWords[toks[i+1]] || i > 0 && numberWords[toks[i-1]]) {
			f, ok = vizNumber, true
		}
		if tok == "NAME" && i > 0 && vizCaptions[toks[i-1]] == vizFirst {
			continue // "First name", "Given name": one caption, not a surname's too
		}
		if ok && !slices.ContainsFunc(out, func(c caption) bool { return c.field == f }) {
			out = append(out, caption{f, line[i].X0, line[i].X1})
		}
	}
	return out
}

func printedSlot(p *license.Printed, f vizField) *license.Read {
	switch f {
	case vizNumber:
		return &p.DocumentNumber
	case vizLast:
		return &p.LastName
	case vizFirst:
		return &p.FirstName
	case vizDOB:
		return &p.DOB
	case vizExpiry:
		return &p.ExpiryDate
	}
	return nil
}
