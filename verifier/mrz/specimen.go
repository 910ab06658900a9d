package mrz

import "strings"

// specimenNumbers are document numbers printed on published specimens and
// sample zones, which every MRZ library's examples and tests reuse: a zone
// carrying one is a copy of a sample, not a document anyone holds. ICAO Doc
// 9303's own (Part 4's passport L898902C3, its earlier editions' L898902C<,
// Part 5's card D23145890, Part 7's visa L8988901C); the Netherlands'
// specimen passports (SPECI2014, SPECI2021); Germany's "Erika Mustermann"
// passport and identity cards (C01X00T47, L01X00T47, T22000129).
var specimenNumbers = []string{
	"L898902C3", "L898902C", "D23145890", "L8988901C",
	"SPECI2014", "SPECI2021",
	"C01X00T47", "L01X00T47", "T22000129",
}

// Specimen reports whether the zone is a specimen's rather than a real
// document's: a known specimen number, the issuing state or nationality
// UTO (ICAO's fictitious Utopia, which issues only the standard's
// examples), or a name spelling SPECIMEN (the word issuers print across
// their samples). Such a zone passes every check digit, so the check
// digits cannot refuse it; the flow refuses it as not genuine.
func (m MRZ) Specimen() bool {
	for _, n := range specimenNumbers {
		if m.DocumentNumber == n {
			return true
		}
	}
	if m.IssuingState == "UTO" || m.Nationality == "UTO" {
		return true
	}
	for _, w := range strings.Fields(m.Surname + " " + m.GivenNames) {
		if w == "SPECIMEN" {
			return true
		}
	}
	return false
}
