package mrz

import (
	"errors"
	"strings"
	"time"

	"github.com/idgate/idgate/verifier/license"
)

// Document is a travel document read from its zone: the identity-document
// port (verifier.Document) for passports (TD3) and cards (TD1). It answers
// in verifier/license's vocabulary, as every kind does (docs/documents.md):
// the specification calls the document a license throughout.
//
// The zone prints two-digit years; Read, the day the zone was read, decides
// their centuries (birthDate, expiryDate), so the document answers the same
// whenever its result is built.
type Document struct {
	MRZ MRZ `json:"mrz"`
	// Read is the day the zone was read.
	Read license.Date `json:"read"`
}

// NewDocument is the document of a validated zone read on the day of now
// (in now's location).
func NewDocument(m MRZ, now time.Time) Document {
	return Document{MRZ: m, Read: license.DateOf(now)}
}

// errNoReadDay: a Document built without NewDocument has no day to choose
// its years' centuries by.
var errNoReadDay = errors.New("mrz: document without the day it was read")

// birthDate is the birth date in the latest century that puts it not after
// the read day: a zone printed today cannot carry a birth in the future,
// and a passport holder over 100 is rarer than one under (the same rule
// every MRZ reader applies; Doc 9303 leaves it to them). A month or day the
// zone leaves unknown ('<<', Part 3 4.8) is taken as the year's last month
// or the month's last day: whole reports whether both were known. Counting
// an unknown birthday as the latest possible never makes anyone of age a
// day early.
func (d Document) birthDate() (date license.Date, whole bool) {
	b := d.MRZ.BirthDate
	year := d.Read.Year/100*100 + b.Year
	earliest := license.Date{Year: year, Month: time.Month(max(b.Month, 1)), Day: max(b.Day, 1)}
	if d.Read.Before(earliest) {
		year -= 100
	}
	month, day := b.Month, b.Day
	if month == 0 {
		month = 12
	}
	if day == 0 {
		// Day 0 of the next month is the month's last day.
		day = time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	}
	return normal(year, month, day), b.Month != 0 && b.Day != 0
}

// expiryDate is the expiry date in the century that puts it within 50 years
// of the read day: a passport is valid for 10 years at most, so a zone read
// today expires within a decade either way of it.
func (d Document) expiryDate() license.Date {
	e := d.MRZ.ExpiryDate
	year := d.Read.Year/100*100 + e.Year
	switch {
	case year > d.Read.Year+50:
		year -= 100
	case year < d.Read.Year-50:
		year += 100
	}
	return normal(year, e.Month, e.Day)
}

// normal is the calendar date, a 29 February of a common year (the zone's
// two-digit year allows it in 1900, 2100) rolled to 1 March as
// license.Date.AddYears does.
func normal(year, month, day int) license.Date {
	return license.DateOf(time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC))
}

// License is the document in a driver's license's members, for the rules
// the two kinds share (license.License.Check, Extract, CompareFront): the
// zone's names (all given names as first names: the zone does not tell a
// middle name from a first), birth and expiry dates, sex, number and
// issuing state. A birth date with an unknown month or day is left out of
// the fields (a date of the catalog is whole) but counted at its latest for
// the age (birthDate). Members the zone does not carry stay empty, so
// their fields are null.
func (d Document) License() license.License {
	dob, _ := d.birthDate()
	return license.License{
		FirstNames:     d.MRZ.GivenNames,
		LastName:       d.MRZ.Surname,
		DOB:            dob,
		ExpiryDate:     d.expiryDate(),
		Sex:            license.Sex(d.MRZ.Sex),
		DocumentNumber: d.MRZ.DocumentNumber,
		Country:        Country(d.MRZ.IssuingState),
		Nationality:    Country(d.MRZ.Nationality),
	}
}

// Check is over_18, over_21 and license_expired on the day of now: the
// license's rules (license.License.Check) on the zone's dates. A document
// without its read day has no dates: under every age and expired.
func (d Document) Check(now time.Time) license.Checks {
	if d.Read.IsZero() {
		return license.License{}.Check(now)
	}
	return d.License().Check(now)
}

// Fields is license_data: the requested names of license.Catalog from the
// zone (License); every field a passport does not carry (address, vehicle
// class, issue date, ...) is null, as is a birth date the zone leaves
// partly unknown.
func (d Document) Fields(requested []string) (map[string]any, error) {
	if d.Read.IsZero() {
		return nil, errNoReadDay
	}
	l := d.License()
	if _, whole := d.birthDate(); !whole {
		l.DOB = license.Date{}
	}
	return license.Extract(l, requested)
}

// MatchFront is front_barcode_match: the printed personal-data zone (the
// visual inspection zone, as OCR read it) against the machine-readable
// zone, by the license's comparison (CompareFront: the same normalisations
// and look-alikes). Nothing read compares as unreadable.
func (d Document) MatchFront(p license.Printed) license.FrontMatch {
	if d.Read.IsZero() {
		return license.CompareFront(license.License{}, p)
	}
	return license.CompareFront(d.License(), p)
}

// Holder is the zone's names and issuing country; a travel document
// carries no address, so the address check and geocoding do not run.
func (d Document) Holder() license.Holder {
	return license.Holder{FirstNames: d.MRZ.GivenNames, LastName: d.MRZ.Surname, Country: Country(d.MRZ.IssuingState)}
}

// Country is an ICAO issuing-state or nationality code as ISO 3166-1
// alpha-3, which license_data's country speaks: ICAO's codes are ISO's
// except Germany's "D" (Doc 9303 Part 3, 5); the others ICAO adds (UNO,
// XXA, the British GBD/GBN/GBO/GBP/GBS) are kept as printed.
func Country(code string) string {
	if code = strings.Trim(code, "<"); code == "D" {
		return "DEU"
	}
	return code
}
