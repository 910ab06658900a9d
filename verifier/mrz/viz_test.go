package mrz_test

import (
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
)

// The visual zone's words split by their captions: each caption's value is
// the line under it; a caption not read leaves its field empty rather than
// taking a neighbour's value; fields not compared (nationality) end
// nothing else.
func TestReadVIZ(t *testing.T) {
	var words []license.Word
	for i, line := range [][]string{
		{"Passport", "No.", "/", "No.", "du", "passeport"}, {"L898902C3"},
		{"Surname", "/", "Nom"}, {"ERIKSSON"},
		{"Given", "names", "/", "Prénoms"}, {"ANNA", "MARIA"},
		{"Nationality", "/", "Nationalité"}, {"UTOPIAN"},
		{"Dafe", "ot", "bxrth"}, {"12", "AUG", "1974"},
		{"Date", "of", "expiry", "/", "Date", "d'expiration"}, {"15", "APR", "2031"},
	} {
		for _, w := range line {
			words = append(words, license.Word{Text: w, Conf: 90 - float64(i), Line: i, Chars: []license.Char{{Alts: w[:1], Conf: 99}}})
		}
	}
	p := mrz.ReadVIZ(words)
	for name, c := range map[string]struct {
		r    license.Read
		want string
	}{
		"number": {p.DocumentNumber, "L898902C3"}, "surname": {p.LastName, "ERIKSSON"}, "given names": {p.FirstName, "ANNA MARIA"},
		"birth": {p.DOB, ""}, "expiry": {p.ExpiryDate, "15 APR 2031"}, "issue": {p.IssueDate, ""},
	} {
		if c.r.Text != c.want {
			t.Errorf("%s: %q, want %q", name, c.r.Text, c.want)
		}
	}
	if p.FirstName.Conf != 85 || len(p.FirstName.Chars) != 2 {
		t.Errorf("given names read %+v: the line's weakest word and every character", p.FirstName)
	}
	if p := mrz.ReadVIZ(nil); p.DocumentNumber.Text != "" || p.LastName.Text != "" || p.DOB.Text != "" {
		t.Errorf("nothing read: %+v", p)
	}
}

// An ID card's front: "Card No." names the number, its title ("IDENTITY
// CARD") alone names nothing, so the line under the title is no number.
func TestReadVIZCard(t *testing.T) {
	var words []license.Word
	for i, line := range [][]string{
		{"IDENTITY", "CARD", "/", "CARTE", "D'IDENTITÉ"}, {"UTOPIA"},
		{"Card", "No.", "/", "No.", "de", "la", "carte"}, {"C01X00T47"},
		{"Surname", "/", "Nom"}, {"ERIKSSON"},
		{"Document", "number"}, {"X12"},
	} {
		for _, w := range line {
			words = append(words, license.Word{Text: w, Conf: 90, Line: i})
		}
	}
	p := mrz.ReadVIZ(words)
	if p.DocumentNumber.Text != "C01X00T47" || p.LastName.Text != "ERIKSSON" {
		t.Errorf("number %q, surname %q: want C01X00T47, ERIKSSON", p.DocumentNumber.Text, p.LastName.Text)
	}
	title := mrz.ReadVIZ(words[:6])
	if title.DocumentNumber.Text != "" {
		t.Errorf("the card's title captioned %q as its number", title.DocumentNumber.Text)
	}
}

// Captions beyond English and French: each language's names its fields;
// a place of birth is no birth date, a name at birth no surname, Spain's
// DNI (the holder's personal number) no document number, and "Valid
// from" no expiry.
func TestReadVIZLanguages(t *testing.T) {
	read := func(lines ...[]string) license.Printed {
		var words []license.Word
		for i, line := range lines {
			for _, w := range line {
				words = append(words, license.Word{Text: w, Conf: 90, Line: i})
			}
		}
		return mrz.ReadVIZ(words)
	}
	for _, c := range []struct {
		lang  string
		lines [][]string
		want  [5]string // number, surname, given names, birth, expiry
	}{
		{"German", [][]string{{"Reisepass"}, {"C01X00T47"}, {"Name"}, {"MUSTERMANN"}, {"Geburtsname"}, {"GABLER"},
			{"Vornamen"}, {"ERIKA"}, {"Geburtsort"}, {"BERLIN"}, {"Geburtstag"}, {"12.08.1964"}, {"Gültig", "bis"}, {"31.10.2030"}},
			[5]string{"C01X00T47", "MUSTERMANN", "ERIKA", "12.08.1964", "31.10.2030"}},
		{"Spanish", [][]string{{"DNI"}, {"99999999R"}, {"Apellidos"}, {"ESPAÑOLA", "ESPAÑOLA"}, {"Nombre"}, {"CARMEN"},
			{"Lugar", "de", "nacimiento"}, {"MADRID"}, {"Fecha", "de", "nacimiento"}, {"01", "01", "1980"}, {"Núm", "soport"}, {"BAA000589"},
			{"Validez"}, {"01", "01", "2030"}},
			[5]string{"BAA000589", "ESPAÑOLA ESPAÑOLA", "CARMEN", "01 01 1980", "01 01 2030"}},
		{"Italian", [][]string{{"Cognome"}, {"ROSSI"}, {"Nome"}, {"BIANCA"}, {"Luogo", "di", "nascita"}, {"ROMA"}, {"Data", "di", "nascita"},
			{"12", "AGO", "1974"}, {"Scadenza"}, {"15", "APR", "2031"}},
			[5]string{"", "ROSSI", "BIANCA", "12 AGO 1974", "15 APR 2031"}},
		{"Dutch", [][]string{{"Documentnummer"}, {"SPECI2014"}, {"Naam"}, {"DE", "BRUIJN"}, {"Voornamen"}, {"WILLEKE"},
			{"Geboortedatum"}, {"10", "MRT", "1965"}, {"Datum", "van", "afgifte"}, {"01", "JAN", "2020"}, {"Geldig", "tot"}, {"01", "JAN", "2030"}},
			[5]string{"SPECI2014", "DE BRUIJN", "WILLEKE", "10 MRT 1965", "01 JAN 2030"}},
		{"Portuguese", [][]string{{"Documento", "N.º"}, {"00000000"}, {"Apelido(s)"}, {"CORREIA"}, {"Nome(s)"}, {"INÊS"},
			{"Local", "de", "nascimento"}, {"LISBOA"}, {"Data", "de", "nascimento"}, {"09", "07", "1990"}, {"Validade"}, {"09", "07", "2031"}},
			[5]string{"00000000", "CORREIA", "INÊS", "09 07 1990", "09 07 2031"}},
		{"English, valid from", [][]string{{"Surname"}, {"SMITH"}, {"Valid", "from"}, {"01", "JAN", "2020"}},
			[5]string{"", "SMITH", "", "", ""}},
	} {
		p := read(c.lines...)
		got := [5]string{p.DocumentNumber.Text, p.LastName.Text, p.FirstName.Text, p.DOB.Text, p.ExpiryDate.Text}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
}

// Rows of fields side by side, read by OCR as one caption line over one
// value line (ICAO's specimen page): the number is the one word shaped
// like one, the dates go to the date captions in order, a date caption's
// one date is taken from beside a personal number, and names beside
// another field, or a row whose shapes do not fit its captions, are left
// unread rather than guessed.
func TestReadVIZRows(t *testing.T) {
	read := func(lines ...string) license.Printed { return mrz.ReadVIZ(ocrWords(lines...)) }
	for _, c := range []struct {
		name  string
		lines []string
		want  [5]string // number, surname, given names, birth, expiry
	}{
		{"specimen", []string{"Type / Type Code / Code Passport No. / No. du passeport", "P UTO L898902C3",
			"Surname / Nom", "ERIKSSON", "Given names / Prénoms", "ANNA MARIA",
			"Date of birth / Date de naissance Personal No. / No personnel", "12 AUG 1974 ZE 184226 B",
			"Sex / Sexe Place of birth / Lieu de naissance", "F ZENITH",
			"Date of issue / Date de délivrance Date of expiry / Date d'expiration", "16 APR 2007 15 APR 2012"},
			[5]string{"L898902C3", "ERIKSSON", "ANNA MARIA", "12 AUG 1974", "15 APR 2012"}},
		{"numeric dates", []string{"Geburtstag / Date of birth Staatsangehörigkeit / Nationality", "12.08.1983 DEUTSCH",
			"Ausstellungsdatum Gültig bis", "01 01 2020 01 01 2030"},
			[5]string{"", "", "", "12.08.1983", "01 01 2030"}},
		{"names side by side", []string{"Surname / Nom Given names / Prénoms", "ERIKSSON ANNA MARIA", "First name", "ANNA"},
			[5]string{"", "", "ANNA", "", ""}},
		{"two number-shaped words", []string{"Type Code Passport No.", "P UTO L898902C3 ZE184226B"},
			[5]string{"", "", "", "", ""}},
		{"dates not as many as their captions", []string{"Date of issue Date of expiry", "15 APR 2012", "Date of birth", "12 AUG 1974 01 01 1990"},
			[5]string{"", "", "", "12 AUG 1974 01 01 1990", ""}}, // as read: no one date of it
	} {
		p := read(c.lines...)
		got := [5]string{p.DocumentNumber.Text, p.LastName.Text, p.FirstName.Text, p.DOB.Text, p.ExpiryDate.Text}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A number printed under no caption (Germany's ID card) is read only to
// match: the one number-shaped word alone on its line, nine characters
// when several are, with no confidence and no characters, so a
// disagreement is unreadable; two such words of nine leave it unread, and
// a captioned number wins.
func TestReadVIZUncaptionedNumber(t *testing.T) {
	read := func(lines ...string) license.Printed {
		words := ocrWords(lines...)
		for i, w := range words {
			words[i].Conf, words[i].Chars = 95, []license.Char{{Alts: w.Text[:1], Conf: 99}}
		}
		return mrz.ReadVIZ(words)
	}
	p := read("T22000129", "Name", "MUSTERMANN", "123456")
	if p.DocumentNumber.Text != "T22000129" || p.DocumentNumber.Conf != 0 || p.DocumentNumber.Chars != nil {
		t.Errorf("uncaptioned number read %+v, want T22000129 with no confidence nor characters", p.DocumentNumber)
	}
	if p := read("T22000129", "L01X00T47"); p.DocumentNumber.Text != "" {
		t.Errorf("two nine-character words: number %q, want none", p.DocumentNumber.Text)
	}
	if p := read("T22000129", "Card No.", "L01X00T47"); p.DocumentNumber.Text != "L01X00T47" || p.DocumentNumber.Conf != 95 {
		t.Errorf("a captioned number beside a loose word: %+v", p.DocumentNumber)
	}
	if p := read("Surname", "ERIKSSON", "MUSTERMANN"); p.DocumentNumber.Text != "" {
		t.Errorf("a name taken for the number: %q", p.DocumentNumber.Text)
	}
	m, err := mrz.Parse("I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<")
	if err != nil {
		t.Fatal(err)
	}
	l := mrz.NewDocument(*m, time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)).License()
	for _, c := range []struct {
		printed string
		want    license.FieldOutcome
	}{{"D23145890", license.FieldMatch}, {"D23145891", license.FieldUnreadable}, {"X99999999", license.FieldUnreadable}} {
		p := read(c.printed)
		if got := license.CompareFront(l, p).Fields.DocumentNumber; got != c.want {
			t.Errorf("uncaptioned %s against the zone's D23145890: %s, want %s", c.printed, got, c.want)
		}
	}
}

// Names side by side are split by the columns their captions start,
// where OCR gives the words' edges (laid out here a character 10 px
// wide): the surname and the given names each their column's words; a
// column's name holding a word that is no name's (a date's day standing
// left of "birth", the word naming its caption) is left unread; without
// edges, both names stay unread (TestReadVIZRows).
func TestReadVIZNameColumns(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string
		want  [3]string // surname, given names, birth
	}{
		{"names", []string{"Surname / Nom        Given names / Prénoms", "ERIKSSON             ANNA MARIA"},
			[3]string{"ERIKSSON", "ANNA MARIA", ""}},
		{"accented", []string{"Surname / Nom        Given names / Prénoms", "MÜLLER-LÜDENSCHEIDT  JOSÉ"},
			[3]string{"MÜLLER-LÜDENSCHEIDT", "JOSÉ", ""}},
		{"a date in the name's column", []string{"Surname / Nom   Date of birth", "ERIKSSON        12 AUG 1974"},
			[3]string{"", "", "12 AUG 1974"}},
	} {
		p := mrz.ReadVIZ(placedWords(c.lines...))
		if got := [3]string{p.LastName.Text, p.FirstName.Text, p.DOB.Text}; got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// placedWords are lines as OCR reads them with the words' edges, each
// character 10 px wide where it stands in its line.
func placedWords(lines ...string) []license.Word {
	var words []license.Word
	for i, line := range lines {
		r := []rune(line)
		for k := 0; k < len(r); k++ {
			if r[k] == ' ' {
				continue
			}
			e := k
			for e < len(r) && r[e] != ' ' {
				e++
			}
			words = append(words, license.Word{Text: string(r[k:e]), Conf: 90, Line: i, X0: 10 * k, X1: 10 * e})
			k = e
		}
	}
	return words
}

// ocrWords is what OCR reads of lines: their words, each on its line,
// at confidence 90.
func ocrWords(lines ...string) []license.Word {
	var words []license.Word
	for i, line := range lines {
		for _, w := range strings.Fields(line) {
			words = append(words, license.Word{Text: w, Conf: 90, Line: i})
		}
	}
	return words
}
