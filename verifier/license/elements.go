package license

// elementDef is a DL/ID data element and the AAMVA versions that define it.
// Version 0 (pre-standard) shares version 1's elements. IDs can change
// meaning between versions (DAC/DAD are "driver first/middle name" in 2000
// and "customer first/middle name" from 2009), hence ranges, not sets.
type elementDef struct {
	ID       string
	Name     string
	From, To int
}

// elementDefs is the element catalogue of the DL/ID subfile, compiled from
// the published descriptions of each edition of the standard: the 2000
// standard (version 1), the 2003 and 2005 card design specifications
// (versions 2 and 3, which name the cardholder with DCS family name and DCT
// given names) and the 2009 to 2020 standards (versions 4 to 10, with
// DCS/DAC/DAD and truncation flags).
var elementDefs = []elementDef{
	// AAMVA DL/ID-2000 (version 1) and pre-standard barcodes.
	{"DAA", "Full name (LAST,FIRST,MIDDLE,SUFFIX)", 0, 1},
	{"DAB", "Last name", 0, 1},
	{"DAC", "First name", 0, 1},
	{"DAD", "Middle name or initial", 0, 1},
	{"DAE", "Name suffix", 0, 1},
	{"DAF", "Name prefix", 0, 1},
	{"DAG", "Mailing street address 1", 0, 1},
	{"DAH", "Mailing street address 2", 0, 1},
	{"DAI", "Mailing city", 0, 1},
	{"DAJ", "Mailing jurisdiction code", 0, 1},
	{"DAK", "Mailing postal code", 0, 1},
	{"DAL", "Residence street address 1", 0, 1},
	{"DAM", "Residence street address 2", 0, 1},
	{"DAN", "Residence city", 0, 1},
	{"DAO", "Residence jurisdiction code", 0, 1},
	{"DAP", "Residence postal code", 0, 1},
	{"DAQ", "License or ID number", 0, 1},
	{"DAR", "License classification code", 0, 1},
	{"DAS", "License restriction code", 0, 1},
	{"DAT", "License endorsements code", 0, 1},
	{"DAU", "Height (FT/IN)", 0, 1},
	{"DAV", "Height (CM)", 0, 1},
	{"DAW", "Weight (LBS)", 0, 1},
	{"DAX", "Weight (KG)", 0, 1},
	{"DAY", "Eye color", 0, 1},
	{"DAZ", "Hair color", 0, 1},
	{"DBA", "License expiration date (CCYYMMDD)", 0, 1},
	{"DBB", "Date of birth (CCYYMMDD)", 0, 1},
	{"DBC", "Sex", 0, 1},
	{"DBD", "License or ID issue date (CCYYMMDD)", 0, 1},
	{"DBE", "Issue timestamp", 0, 1},
	{"DBF", "Number of duplicates", 0, 1},
	{"DBG", "Medical indicator/codes", 0, 1},
	{"DBH", "Organ donor", 0, 1},
	{"DBI", "Non-resident indicator", 0, 1},
	{"DBJ", "Unique customer identifier", 0, 1},
	{"DBK", "Social security number", 0, 1},
	{"DBL", "AKA date of birth", 0, 1},
	{"DBM", "AKA social security number", 0, 1},
	{"DBN", "AKA name", 0, 1},
	{"DBO", "AKA last name", 0, 1},
	{"DBP", "AKA first name", 0, 1},
	{"DBQ", "AKA middle name", 0, 1},
	{"DBR", "AKA suffix", 0, 1},
	{"DBS", "AKA prefix", 0, 1},
	{"PAA", "Permit classification code", 0, 1},
	{"PAB", "Permit expiration date", 0, 1},
	{"PAC", "Permit identifier", 0, 1},
	{"PAD", "Permit issue date", 0, 1},
	{"PAE", "Permit restriction code", 0, 1},
	{"PAF", "Permit endorsement code", 0, 1},

	// Versions 2 (2003) to 10 (2020).
	{"DCA", "Jurisdiction-specific vehicle class", 2, 10},
	{"DCB", "Jurisdiction-specific restriction codes", 2, 10},
	{"DCD", "Jurisdiction-specific endorsement codes", 2, 10},
	{"DBA", "Document expiration date", 2, 10},
	{"DCS", "Customer family name", 2, 10},
	{"DCT", "Customer given names", 2, 3},
	{"DAC", "Customer first name", 4, 10},
	{"DAD", "Customer middle name(s)", 4, 10},
	{"DCU", "Name suffix", 2, 10},
	{"DBD", "Document issue date", 2, 10},
	{"DBB", "Date of birth", 2, 10},
	{"DBC", "Sex (1 male, 2 female, 9 not specified)", 2, 10},
	{"DAY", "Eye color (ANSI D-20)", 2, 10},
	{"DAU", "Height (NNN in / NNN cm)", 2, 10},
	{"DAG", "Address street 1", 2, 10},
	{"DAH", "Address street 2", 2, 10},
	{"DAI", "Address city", 2, 10},
	{"DAJ", "Address jurisdiction code", 2, 10},
	{"DAK", "Address postal code", 2, 10},
	{"DAQ", "Customer ID number", 2, 10},
	{"DCF", "Document discriminator", 2, 10},
	{"DCG", "Country identification", 2, 10},
	{"DCH", "Federal commercial vehicle codes", 2, 10},
	{"DAZ", "Hair color (ANSI D-20)", 2, 10},
	{"DCI", "Place of birth", 2, 10},
	{"DCJ", "Audit information", 2, 10},
	{"DCK", "Inventory control number", 2, 10},
	{"DBN", "Alias / AKA family name", 2, 10},
	{"DBG", "Alias / AKA given name", 2, 10},
	{"DBS", "Alias / AKA suffix name", 2, 10},
	{"DCE", "Weight range", 2, 10},
	{"DCL", "Race / ethnicity", 2, 10},
	{"DCM", "Standard vehicle classification", 2, 10},
	{"DCN", "Standard endorsement code", 2, 10},
	{"DCO", "Standard restriction code", 2, 10},
	{"DCP", "Jurisdiction-specific vehicle classification description", 2, 10},
	{"DCQ", "Jurisdiction-specific endorsement code description", 2, 10},
	{"DCR", "Jurisdiction-specific restriction code description", 2, 10},
	{"DAW", "Weight (pounds)", 2, 10},
	{"DAX", "Weight (kilograms)", 2, 10},
	{"DDE", "Family name truncation", 4, 10},
	{"DDF", "First name truncation", 4, 10},
	{"DDG", "Middle name truncation", 4, 10},
	{"DDA", "Compliance type (F: REAL ID compliant, N: not)", 4, 10},
	{"DDB", "Card revision date", 4, 10},
	{"DDC", "HAZMAT endorsement expiration date", 4, 10},
	{"DDD", "Limited duration document indicator", 4, 10},
	{"DDH", "Under 18 until", 4, 10},
	{"DDI", "Under 19 until", 4, 10},
	{"DDJ", "Under 21 until", 4, 10},
	{"DDK", "Organ donor indicator", 4, 10},
	{"DDL", "Veteran indicator", 4, 10},
}

// MaxVersion is the newest AAMVA version this package knows (2020).
const MaxVersion = 10

// knownElement reports whether id is a DL/ID element of the version.
// Versions above MaxVersion are read with the newest table.
func knownElement(id string, version int) bool {
	v := min(max(version, 0), MaxVersion)
	for _, d := range elementDefs {
		if d.ID == id && v >= d.From && v <= d.To {
			return true
		}
	}
	return false
}

// ElementName is the standard's name of a DL/ID element in the version,
// or "" when the version does not define it.
func ElementName(id string, version int) string {
	v := min(max(version, 0), MaxVersion)
	for _, d := range elementDefs {
		if d.ID == id && v >= d.From && v <= d.To {
			return d.Name
		}
	}
	return ""
}

// isElementID reports whether s starts with three upper-case letters.
func isElementID(s string) bool {
	if len(s) < 3 {
		return false
	}
	for i := range 3 {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
