package mrz

// Format is the layout of a zone.
type Format int

const (
	// TD3 is the passport's data page: 2 lines of 44 (Doc 9303 Part 4).
	TD3 Format = iota + 1
	// TD1 is the card's: 3 lines of 30 (Doc 9303 Part 5).
	TD1
)

func (f Format) String() string {
	switch f {
	case TD3:
		return "TD3"
	case TD1:
		return "TD1"
	}
	return "unknown"
}

// MRZ is a zone whose check digits all hold, its fields with the fillers
// removed. Lines is the zone after any look-alike correction, exactly as
// the check digits validated it.
type MRZ struct {
	Format Format
	Lines  []string
	// DocumentCode: two letters, the first P (TD3) or A, C or I (TD1); the
	// second, issuer-defined, is empty when a filler.
	DocumentCode string
	// IssuingState and Nationality: three-letter codes (ICAO's, mostly ISO
	// 3166-1 alpha-3; "D" for Germany), fillers removed.
	IssuingState string
	Nationality  string
	// Surname is the primary identifier, GivenNames the secondary (words
	// separated by a space; empty when the zone has none).
	Surname    string
	GivenNames string
	// DocumentNumber, whole (TD1's long numbers joined from the optional
	// data, Part 5 4.2.2).
	DocumentNumber string
	BirthDate      Date
	// Sex: "M", "F", "X", or "" when unspecified ('<').
	Sex        string
	ExpiryDate Date
	// OptionalData: TD3's personal number; TD1's first optional field
	// (after any long document number's tail). OptionalData2: TD1's second.
	OptionalData  string
	OptionalData2 string
	// Corrected lists the fields a look-alike correction changed.
	Corrected []string
}

// Date is a date as the zone prints it: two-digit year, month and day.
// Month and Day are 0 where a birth date has them unknown ('<<', Part 3).
type Date struct {
	Year, Month, Day int
}
