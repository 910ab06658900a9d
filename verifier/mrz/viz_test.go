package mrz_test

import (
	"testing"

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
