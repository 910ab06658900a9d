package mrz_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/mrz"
)

// The passport read from its zone is an identity document.
var _ verifier.Document = mrz.Document{}

// zone is a TD3 zone of a holder born on birth, the passport expiring on
// expiry (YYMMDD each), '<<' for an unknown month or day.
func zone(t *testing.T, state, number, birth, expiry string) mrz.MRZ {
	t.Helper()
	date := func(s string) mrz.Date {
		n := func(p string) int {
			if p == "<<" {
				return 0
			}
			return int(p[0]-'0')*10 + int(p[1]-'0')
		}
		return mrz.Date{Year: n(s[0:2]), Month: n(s[2:4]), Day: n(s[4:6])}
	}
	lines, err := mrz.Encode(mrz.MRZ{Format: mrz.TD3, DocumentCode: "P", IssuingState: state, Nationality: state,
		Surname: "VAN DER BERG", GivenNames: "JOHANNA MARIA", DocumentNumber: number, BirthDate: date(birth),
		Sex: "F", ExpiryDate: date(expiry)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := mrz.Parse(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return *m
}

func day(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return d
}

// TestDocumentCenturies: a birth year's century is the latest that keeps
// the birth not after the day the zone was read; an expiry's the one
// within 50 years of it.
func TestDocumentCenturies(t *testing.T) {
	for _, c := range []struct {
		read, birth, expiry, wantDOB, wantExpiry string
	}{
		{"2026-11-29", "080315", "310101", "2008-03-15", "2031-01-01"},
		{"2026-11-29", "261129", "361128", "2026-11-29", "2036-11-28"}, // born the day it was read
		{"2026-11-29", "261130", "361129", "1926-11-30", "2036-11-29"}, // a day later: a century earlier
		{"2026-11-29", "740812", "190415", "1974-08-12", "2019-04-15"}, // expired years ago
		{"2099-06-01", "990101", "050101", "2099-01-01", "2105-01-01"}, // expiry across the century
		{"2001-06-01", "500101", "990101", "1950-01-01", "1999-01-01"},
	} {
		d := mrz.NewDocument(zone(t, "NLD", "XN5004216", c.birth, c.expiry), day(c.read))
		f, err := d.Fields([]string{"dob", "expiry_date"})
		if err != nil {
			t.Fatal(err)
		}
		if f["dob"] != c.wantDOB || f["expiry_date"] != c.wantExpiry {
			t.Errorf("read %s, birth %s, expiry %s: dob %v expiry %v, want %s %s", c.read, c.birth, c.expiry,
				f["dob"], f["expiry_date"], c.wantDOB, c.wantExpiry)
		}
	}
}

// TestDocumentCheck: ages and expiry by the license's rules on the zone's
// dates; an unknown birthday counts as the latest the zone allows.
func TestDocumentCheck(t *testing.T) {
	read := day("2026-11-29")
	for _, c := range []struct {
		birth, expiry  string
		now            string
		over18, over21 bool
		expired        bool
	}{
		{"081129", "310101", "2026-11-29", true, false, false},  // 18 today
		{"081130", "310101", "2026-11-29", false, false, false}, // 18 tomorrow
		{"051129", "261128", "2026-11-29", true, true, true},    // 21 today; expired yesterday
		{"051130", "261129", "2026-11-29", true, false, false},  // valid through its expiry day
		{"08<<<<", "310101", "2026-11-29", false, false, false}, // born in 2008, month unknown: 18 only on 31 December
		{"08<<<<", "310101", "2026-12-31", true, false, false},
		{"0811<<", "310101", "2026-11-30", true, false, false}, // day unknown: the month's last
		{"0811<<", "310101", "2026-11-29", false, false, false},
	} {
		d := mrz.NewDocument(zone(t, "NLD", "XN5004216", c.birth, c.expiry), read)
		got := d.Check(day(c.now))
		if got.Over18 != c.over18 || got.Over21 != c.over21 || got.Expired != c.expired {
			t.Errorf("birth %s expiry %s on %s: over18 %v over21 %v expired %v, want %v %v %v", c.birth, c.expiry,
				c.now, got.Over18, got.Over21, got.Expired, c.over18, c.over21, c.expired)
		}
	}
	// Without its read day a document has no dates: the unread answer.
	if got := (mrz.Document{MRZ: zone(t, "NLD", "XN5004216", "740812", "310101")}).Check(read); got.Over18 || !got.Expired {
		t.Errorf("no read day: %+v", got)
	}
}

// TestDocumentFields: the catalog's names from the zone, null where a
// passport carries nothing.
func TestDocumentFields(t *testing.T) {
	m := zone(t, "D", "C4J6R0H11", "640812", "310101")
	d := mrz.NewDocument(m, day("2026-11-29"))
	var names []string
	for _, f := range license.Catalog {
		names = append(names, f.Name)
	}
	got, err := d.Fields(names)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"first_names": "JOHANNA MARIA", "last_name": "VAN DER BERG", "dob": "1964-08-12", "sex": "F",
		"document_number": "C4J6R0H11", "expiry_date": "2031-01-01", "country": "DEU",
		"nationality": "DEU",
	}
	for _, n := range names {
		if want[n] == nil {
			want[n] = nil // every other field: null
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields:\n got %v\nwant %v", got, want)
	}
	if _, err := d.Fields([]string{"shoe_size"}); err == nil {
		t.Error("an unknown field passed")
	}
	// A birth date with an unknown day is no date of the catalog.
	partial := mrz.NewDocument(zone(t, "NLD", "XN5004216", "6408<<", "310101"), day("2026-11-29"))
	if f, _ := partial.Fields([]string{"dob"}); f["dob"] != nil {
		t.Errorf("partial birth date: dob %v, want null", f["dob"])
	}
	if _, err := (mrz.Document{MRZ: m}).Fields([]string{"dob"}); err == nil {
		t.Error("a document without its read day answered fields")
	}
	h := d.Holder()
	if h != (license.Holder{FirstNames: "JOHANNA MARIA", LastName: "VAN DER BERG", Country: "DEU"}) {
		t.Errorf("holder %+v", h)
	}
}

// TestDocumentMatchFront: the printed zone against the machine-readable
// zone, by the license's comparison; nothing read is unreadable.
func TestDocumentMatchFront(t *testing.T) {
	d := mrz.NewDocument(zone(t, "NLD", "XN5004216", "740812", "310415"), day("2026-11-29"))
	read := func(s string) license.Read {
		r := license.Read{Text: s, Conf: 95}
		for _, c := range s {
			r.Chars = append(r.Chars, license.Char{Alts: string(c), Conf: 95})
		}
		return r
	}
	printed := license.Printed{DocumentNumber: read("XN5004216"), LastName: read("VAN DER BERG"),
		FirstName: read("JOHANNA MARIA"), DOB: read("12 AUG 1974"), ExpiryDate: read("15 APR 2031")}
	if got := d.MatchFront(printed); got.Result != license.FieldMatch {
		t.Errorf("the visual zone as printed: %+v", got)
	}
	printed.DocumentNumber = read("XN5004217")
	if got := d.MatchFront(printed); got.Result != license.FieldMismatch || got.Fields.DocumentNumber != license.FieldMismatch {
		t.Errorf("another number printed: %+v", got)
	}
	if got := d.MatchFront(license.Printed{}); got.Result != license.FieldUnreadable {
		t.Errorf("nothing read: %+v", got)
	}
}

// TestSpecimenZones: the standard's and issuers' published samples are
// specimens; a zone like them with another number is not.
func TestSpecimenZones(t *testing.T) {
	for _, c := range []struct {
		state, number string
		want          bool
	}{
		{"NLD", "L898902C3", true}, {"NLD", "D23145890", true}, {"NLD", "SPECI2014", true},
		{"D", "C01X00T47", true}, {"UTO", "XN5004216", true},
		{"NLD", "XN5004216", false}, {"D", "C4J6R0H11", false}, {"NLD", "L898902C4", false},
	} {
		if got := zone(t, c.state, c.number, "740812", "310415").Specimen(); got != c.want {
			t.Errorf("%s %s: specimen %v, want %v", c.state, c.number, got, c.want)
		}
	}
}
