package engines_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
)

// cardDoc is the document a TD1 zone reads as today.
func cardDoc(t testing.TB, zone []string) mrz.Document {
	t.Helper()
	m, err := mrz.Parse(strings.Join(zone, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return mrz.NewDocument(*m, time.Now())
}

// dottedDate prints a date day first with dots, as many national ID cards
// do (DD.MM.YYYY).
func dottedDate(d license.Date) string {
	return fmt.Sprintf("%02d.%02d.%04d", d.Day, int(d.Month), d.Year)
}

// idFront is front_barcode_match of an ID card whose back carries zone and
// whose front, rendered by s, prints front, and what was read on it.
func idFront(t *testing.T, s cardtest.Scene, zone []string, front *cardtest.Front) (license.FrontMatch, license.Printed) {
	t.Helper()
	s.Front = front
	rep, err := loaded(t).IDCardFrontPrinted(context.Background(), frontPhoto(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) > 0 || rep.Printed == nil {
		t.Fatalf("front refused: %v", rep.Problems)
	}
	return cardDoc(t, zone).MatchFront(*rep.Printed), *rep.Printed
}

// The front of an ID card printing its zone's fields under their
// captions agrees with the zone, photographed at 1-12 MP, tilted, a little
// blurred, its dates as a day, a month's name and a year or day first with
// dots: front_barcode_match is a match, every field. In calibration
// (2026-11-29, load 9-10): 24 such fronts, 1280-4000 px photos with the
// card 800-2200 px across, all match. Two of the four fronts a run,
// taking turns by commit (sharedGroups; the four took 7.0 s of CPU): one
// with dotted dates and one with months' names in each round.
func TestIDCardFrontVIZMatches(t *testing.T) {
	cases := []struct {
		frameW, cardW int
		blur          float64
		date          func(license.Date) string
	}{
		{1280, 800, 0, dottedDate}, {1600, 1000, 0.6, nil}, {2400, 1300, 1.2, dottedDate}, {4000, 2200, 0.6, nil},
	}
	for _, i := range sharedGroups(t, 2, []int{0, 3}, []int{1, 2}) {
		c := cases[i]
		zone := cardZone(uint64(100 + i))
		s := cardtest.Scene{FrameW: c.frameW, CardW: float64(c.cardW), Face: labeledFace(t, "sheldon/sheldon2.png"), RotationDeg: float64(2*i - 3),
			Keystone: 0.03, Seed: uint64(i), Blur: c.blur}
		m, p := idFront(t, s, zone, &cardtest.Front{Fields: mrztest.CardFields(nil, zone, nil, c.date)})
		if m.Result != license.FieldMatch {
			t.Errorf("%d px, card %d px: %+v\n%+v", c.frameW, c.cardW, m, p)
		}
	}
}

// A tampered front, printing another birth year, surname or number than
// its back's zone, is a mismatch on that field alone. In calibration: 18
// tampered fronts (6 of each), all a mismatch on exactly that field.
func TestIDCardFrontVIZTampered(t *testing.T) {
	for i, c := range []struct {
		name   string
		tamper func(*mrz.MRZ)
		field  func(license.FrontFields) license.FieldOutcome
	}{
		{"birth year", func(m *mrz.MRZ) { m.BirthDate.Year = (m.BirthDate.Year + 3) % 100 }, func(f license.FrontFields) license.FieldOutcome { return f.DOB }},
		{"surname", func(m *mrz.MRZ) { m.Surname = "MORGENSTERN" }, func(f license.FrontFields) license.FieldOutcome { return f.LastName }},
		{"number", func(m *mrz.MRZ) { m.DocumentNumber = m.DocumentNumber[:len(m.DocumentNumber)-1] + "7" },
			func(f license.FrontFields) license.FieldOutcome { return f.DocumentNumber }},
	} {
		zone := cardZone(uint64(110 + i))
		s := cardtest.Scene{FrameW: 2000, CardW: 1200, Face: labeledFace(t, "leonard/leonard1.png"), RotationDeg: 3, Keystone: 0.03, Seed: uint64(i)}
		m, p := idFront(t, s, zone, &cardtest.Front{Fields: mrztest.CardFields(nil, zone, c.tamper, dottedDate)})
		if m.Result != license.FieldMismatch || c.field(m.Fields) != license.FieldMismatch || mismatches(m.Fields) != 1 {
			t.Errorf("%s: %+v\n%+v", c.name, m, p)
		}
	}
}

// A front that cannot be read is unreadable, never a mismatch: smudged,
// blurred, or printing its fields without the captions the reader knows
// (a license's labelled lines). In calibration: 9 smudged (0.35, 0.55) or
// blurred (2.5 px) fronts, all unreadable.
func TestIDCardFrontVIZUnreadable(t *testing.T) {
	zone := cardZone(120)
	doc := cardDoc(t, zone)
	l := doc.License()
	for i, c := range []struct {
		name  string
		front *cardtest.Front
		blur  float64
	}{
		{"smudged", &cardtest.Front{Fields: mrztest.CardFields(nil, zone, nil, nil), Smudge: 0.55}, 0},
		{"blurred", &cardtest.Front{Fields: mrztest.CardFields(nil, zone, nil, nil)}, 2.5},
		{"no captions", &cardtest.Front{Lines: cardtest.FrontLines(l)}, 0},
	} {
		s := cardtest.Scene{FrameW: 1600, CardW: 1000, Face: labeledFace(t, "penny/penny1.png"), RotationDeg: 2, Keystone: 0.03, Seed: uint64(i), Blur: c.blur}
		m, p := idFront(t, s, zone, c.front)
		if m.Result != license.FieldUnreadable || mismatches(m.Fields) > 0 {
			t.Errorf("%s: %+v, want unreadable\n%+v", c.name, m, p)
		}
	}
}

// Fronts captioned in the issuer's language alone, as many national cards
// are (German, Spanish, Italian, Dutch, Portuguese), their dates as such
// cards print them (day first with dots or spaces, or a month's name in
// the language): read by those captions, front_barcode_match is a match;
// the same front printing another surname is a mismatch on it alone.
// Every language's genuine front every run; the fronts printing another
// surname take turns by commit, two or three languages a run
// (sharedCases; the ten fronts took 5.7 s of CPU).
func TestIDCardFrontVIZLanguages(t *testing.T) {
	named := func(months ...string) func(license.Date) string {
		return func(d license.Date) string { return fmt.Sprintf("%02d %s %04d", d.Day, months[d.Month-1], d.Year) }
	}
	spaced := func(d license.Date) string { return fmt.Sprintf("%02d %02d %04d", d.Day, int(d.Month), d.Year) }
	langs := []struct {
		lang     string
		captions []string
		date     func(license.Date) string
	}{
		{"German", []string{"Dokumentennummer", "Name", "Vornamen", "Geburtsdatum", "Gültig bis"}, dottedDate},
		{"Spanish", []string{"Núm. de soporte", "Apellidos", "Nombre", "Fecha de nacimiento", "Validez"}, spaced},
		{"Italian", []string{"Passaporto N.", "Cognome", "Nome", "Data di nascita", "Scadenza"},
			named("GEN", "FEB", "MAR", "APR", "MAG", "GIU", "LUG", "AGO", "SET", "OTT", "NOV", "DIC")},
		{"Dutch", []string{"Documentnummer", "Naam", "Voornamen", "Geboortedatum", "Geldig tot"},
			named("JAN", "FEB", "MRT", "APR", "MEI", "JUN", "JUL", "AUG", "SEP", "OKT", "NOV", "DEC")},
		{"Portuguese", []string{"Documento N.º", "Apelido(s)", "Nome(s)", "Data de nascimento", "Validade"}, dottedDate},
	}
	tampered := sharedCases(t, len(langs), 2)
	for i, c := range langs {
		zone := cardZone(uint64(130 + i))
		s := cardtest.Scene{FrameW: 1600, CardW: 1000, Face: labeledFace(t, "sheldon/sheldon2.png"), RotationDeg: 3, Keystone: 0.03, Seed: uint64(i)}
		m, p := idFront(t, s, zone, &cardtest.Front{Fields: mrztest.CardFields(c.captions, zone, nil, c.date)})
		if m.Result != license.FieldMatch {
			t.Errorf("%s: %+v\n%+v", c.lang, m, p)
		}
		if !slices.Contains(tampered, i) {
			continue
		}
		other := func(m *mrz.MRZ) { m.Surname = "MORGENSTERN" }
		m, p = idFront(t, s, zone, &cardtest.Front{Fields: mrztest.CardFields(c.captions, zone, other, c.date)})
		if m.Result != license.FieldMismatch || m.Fields.LastName != license.FieldMismatch || mismatches(m.Fields) != 1 {
			t.Errorf("%s, another surname: %+v\n%+v", c.lang, m, p)
		}
	}
}

// A front printing its number under no caption (as Germany's ID card
// does, its number alone at the top): the genuine front matches on every
// field, the number read as the one number-shaped word alone on its line;
// a front printing another number is unreadable on it, never a mismatch,
// since nothing says that word is the number (mrz.ReadVIZ, uncaptioned).
// Before (2026-11-29) both fronts were unreadable on the number.
func TestIDCardFrontUncaptionedNumber(t *testing.T) {
	captions := append([]string{""}, mrztest.CardCaptions[1:]...)
	for i, c := range []struct {
		name   string
		tamper func(*mrz.MRZ)
		want   license.FieldOutcome
	}{
		{"genuine", nil, license.FieldMatch},
		{"another number", func(m *mrz.MRZ) { m.DocumentNumber = m.DocumentNumber[:len(m.DocumentNumber)-1] + "7" }, license.FieldUnreadable},
	} {
		zone := cardZone(uint64(130 + i))
		s := cardtest.Scene{FrameW: 2000, CardW: 1200, Face: labeledFace(t, "sheldon/sheldon2.png"), RotationDeg: 2, Keystone: 0.03, Seed: uint64(i)}
		m, p := idFront(t, s, zone, &cardtest.Front{Fields: mrztest.CardFields(captions, zone, c.tamper, dottedDate)})
		if m.Fields.DocumentNumber != c.want || m.Result != c.want {
			t.Errorf("%s: %+v, want %s\n%+v", c.name, m, c.want, p)
		}
	}
}
