package ipintel

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Address is the part of the license address geocoding reads.
type Address struct {
	City string
	// Jurisdiction is the two-letter state, district, territory or
	// province code.
	Jurisdiction string
	// PostalCode is "12345" or "12345-6789" in the US.
	PostalCode string
	// Country is the issuing country's ISO alpha-3 code ("USA", "CAN"); ""
	// derives it from Jurisdiction.
	Country string
}

// Place is a geocoded address.
type Place struct {
	// Country is the ISO alpha-2 code; "" when the address could not be
	// placed at all.
	Country string
	// Subdivision is the state's or province's name; "" when unknown.
	Subdivision string
	City        string
	// Lat and Lon are the ZIP code's centroid when HasPoint.
	Lat, Lon float64
	HasPoint bool
}

// Gazetteer is the geocoding data port: US ZIP code centroids.
type Gazetteer interface {
	// USZIP is the place of a five-digit ZIP code (its post office's name,
	// state code and centroid); false when the data has no such ZIP.
	USZIP(zip string) (city, state string, lat, lon float64, ok bool)
}

// Geocode places a license address offline: a US address at its ZIP
// code's centroid (when the ZIP is known and lies in the license's state),
// else at its state; a Canadian address at its province (no point: no
// openly licensed postal-code centroid data is installed); US territories
// as their own countries, as IP data lists them. False when not even the
// country and first-level subdivision are known.
func Geocode(a Address, g Gazetteer) (Place, bool) {
	j := strings.ToUpper(strings.TrimSpace(a.Jurisdiction))
	country := strings.ToUpper(strings.TrimSpace(a.Country))
	switch {
	case usTerritories[j] != "" && (country == "USA" || country == ""):
		return Place{Country: usTerritories[j], City: a.City}, true
	case usStates[j] != "" && (country == "USA" || country == ""):
		p := Place{Country: "US", Subdivision: usStates[j], City: a.City}
		zip := strings.TrimSpace(a.PostalCode)
		if len(zip) >= 5 && g != nil {
			if city, state, lat, lon, ok := g.USZIP(zip[:5]); ok && state == j {
				p.Lat, p.Lon, p.HasPoint = lat, lon, true
				if p.City == "" {
					p.City = city
				}
			}
		}
		return p, true
	case caProvinces[j] != "" && (country == "CAN" || country == ""):
		return Place{Country: "CA", Subdivision: caProvinces[j], City: a.City}, true
	}
	return Place{}, false
}

// fold is a name reduced for comparison: no accents, no case, no
// parenthesised district ("Montreal (Ville-Marie)"), no punctuation, "saint"
// for "st".
func fold(s string) string {
	if i := strings.IndexByte(s, '('); i >= 0 {
		s = s[:i]
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte(' ')
		}
	}
	words := strings.Fields(b.String())
	for i, w := range words {
		if w == "st" || w == "ste" {
			words[i] = "saint"
		}
	}
	return strings.Join(words, " ")
}

// sameName compares place names as folded; "" never matches.
func sameName(a, b string) bool {
	fa, fb := fold(a), fold(b)
	return fa != "" && fa == fb
}

// US states and the District of Columbia by USPS code, named as IP data
// names them.
var usStates = map[string]string{
	"AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
	"CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
	"FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
	"IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
	"ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
	"MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
	"NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
	"NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon",
	"PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
	"TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia",
	"WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
}

// US territories issue licenses under USA but have ISO country codes of
// their own, which IP data uses.
var usTerritories = map[string]string{"PR": "PR", "GU": "GU", "VI": "VI", "AS": "AS", "MP": "MP"}

// Canadian provinces and territories by Canada Post code.
var caProvinces = map[string]string{
	"AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
	"NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "NT": "Northwest Territories",
	"NU": "Nunavut", "ON": "Ontario", "PE": "Prince Edward Island", "QC": "Quebec",
	"SK": "Saskatchewan", "YT": "Yukon",
}
