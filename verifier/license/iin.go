package license

// Jurisdiction is an issuer of AAMVA DL/ID cards.
type Jurisdiction struct {
	IIN     string // six-digit Issuer Identification Number
	Code    string // USPS / Canada Post two-letter code
	Name    string
	Country string // ISO 3166 alpha-3: "USA" or "CAN"
}

// Jurisdictions maps an IIN to its issuer: the 50 states, DC, the five
// inhabited US territories and the 13 Canadian provinces and territories
// (AAMVA's published IIN assignments).
//
// Every entry was checked in November 2026 against, most authoritative
// first:
//   - AAMVA's own list, "Issuer Identification Numbers (IIN)", as
//     transcribed on 2023-12-29 in the open-source aamva_barcode_library
//     (AAMVA's page itself was not reachable): all 69 numbers agree.
//   - The IdParser and IdParser.Core issuer enumerations, which cite the
//     same AAMVA page: they agree, but omit Northwest Territories, which
//     AAMVA lists as 604434.
//   - LEADTOOLS' AAMVAJurisdiction reference (a barcode SDK vendor): agrees
//     on every entry of its page that could be read (Alabama to Louisiana
//     in its alphabetical order, which includes AS, BC, DC and GU).
//   - Barcode samples in IdParser's test data: the header IIN agrees with
//     this table for 52 of these jurisdictions. There is no sample for NE,
//     OK, SD, AS, GU, MP, VI, or the Canadian ones other than AB, NB, ON
//     and PE; AB's carries another IIN (below).
//
// Where the sources differ: AAMVA's list gives Newfoundland and Labrador
// the pre-2002 code NF; Code is the current Canada Post code, NL. IdParser's
// Alberta sample carries 990876 instead of AAMVA's 604432 (IdParser lists it
// as a second, non-ISO Alberta IIN); it is not in this table, which holds
// one IIN per jurisdiction. AAMVA also lists the US Department of
// State (636027) and the Mexican states Coahuila (636056) and Hidalgo
// (636057), which are outside the jurisdictions we accept.
var Jurisdictions = map[string]Jurisdiction{}

func init() {
	for _, j := range []Jurisdiction{
		{"636033", "AL", "Alabama", "USA"},
		{"636059", "AK", "Alaska", "USA"},
		{"636026", "AZ", "Arizona", "USA"},
		{"636021", "AR", "Arkansas", "USA"},
		{"636014", "CA", "California", "USA"},
		{"636020", "CO", "Colorado", "USA"},
		{"636006", "CT", "Connecticut", "USA"},
		{"636011", "DE", "Delaware", "USA"},
		{"636043", "DC", "District of Columbia", "USA"},
		{"636010", "FL", "Florida", "USA"},
		{"636055", "GA", "Georgia", "USA"},
		{"636047", "HI", "Hawaii", "USA"},
		{"636050", "ID", "Idaho", "USA"},
		{"636035", "IL", "Illinois", "USA"},
		{"636037", "IN", "Indiana", "USA"},
		{"636018", "IA", "Iowa", "USA"},
		{"636022", "KS", "Kansas", "USA"},
		{"636046", "KY", "Kentucky", "USA"},
		{"636007", "LA", "Louisiana", "USA"},
		{"636041", "ME", "Maine", "USA"},
		{"636003", "MD", "Maryland", "USA"},
		{"636002", "MA", "Massachusetts", "USA"},
		{"636032", "MI", "Michigan", "USA"},
		{"636038", "MN", "Minnesota", "USA"},
		{"636051", "MS", "Mississippi", "USA"},
		{"636030", "MO", "Missouri", "USA"},
		{"636008", "MT", "Montana", "USA"},
		{"636054", "NE", "Nebraska", "USA"},
		{"636049", "NV", "Nevada", "USA"},
		{"636039", "NH", "New Hampshire", "USA"},
		{"636036", "NJ", "New Jersey", "USA"},
		{"636009", "NM", "New Mexico", "USA"},
		{"636001", "NY", "New York", "USA"},
		{"636004", "NC", "North Carolina", "USA"},
		{"636034", "ND", "North Dakota", "USA"},
		{"636023", "OH", "Ohio", "USA"},
		{"636058", "OK", "Oklahoma", "USA"},
		{"636029", "OR", "Oregon", "USA"},
		{"636025", "PA", "Pennsylvania", "USA"},
		{"636052", "RI", "Rhode Island", "USA"},
		{"636005", "SC", "South Carolina", "USA"},
		{"636042", "SD", "South Dakota", "USA"},
		{"636053", "TN", "Tennessee", "USA"},
		{"636015", "TX", "Texas", "USA"},
		{"636040", "UT", "Utah", "USA"},
		{"636024", "VT", "Vermont", "USA"},
		{"636000", "VA", "Virginia", "USA"},
		{"636045", "WA", "Washington", "USA"},
		{"636061", "WV", "West Virginia", "USA"},
		{"636031", "WI", "Wisconsin", "USA"},
		{"636060", "WY", "Wyoming", "USA"},
		{"604427", "AS", "American Samoa", "USA"},
		{"636019", "GU", "Guam", "USA"},
		{"604430", "MP", "Northern Mariana Islands", "USA"},
		{"604431", "PR", "Puerto Rico", "USA"},
		{"636062", "VI", "US Virgin Islands", "USA"},
		{"604432", "AB", "Alberta", "CAN"},
		{"636028", "BC", "British Columbia", "CAN"},
		{"636048", "MB", "Manitoba", "CAN"},
		{"636017", "NB", "New Brunswick", "CAN"},
		{"636016", "NL", "Newfoundland and Labrador", "CAN"},
		{"604434", "NT", "Northwest Territories", "CAN"},
		{"636013", "NS", "Nova Scotia", "CAN"},
		{"604433", "NU", "Nunavut", "CAN"},
		{"636012", "ON", "Ontario", "CAN"},
		{"604426", "PE", "Prince Edward Island", "CAN"},
		{"604428", "QC", "Quebec", "CAN"},
		{"636044", "SK", "Saskatchewan", "CAN"},
		{"604429", "YT", "Yukon", "CAN"},
	} {
		Jurisdictions[j.IIN] = j
	}
}

// IINFor returns the IIN of the jurisdiction with the two-letter code.
func IINFor(code string) (string, bool) {
	for iin, j := range Jurisdictions {
		if j.Code == code {
			return iin, true
		}
	}
	return "", false
}
