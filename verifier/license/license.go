package license

import (
	"errors"
	"fmt"
)

// Errors callers branch on.
var (
	// ErrNotAAMVA means the input has neither an AAMVA header nor any
	// recognisable DL/ID data element.
	ErrNotAAMVA = errors.New("license: not AAMVA data")
	// ErrUnknownIIN means the header names an issuer number that belongs to
	// no US or Canadian jurisdiction (ValidateStructure only).
	ErrUnknownIIN = errors.New("license: unknown issuer identification number")
	// ErrUnsupportedVersion means an AAMVA version outside 0–10
	// (ValidateStructure only).
	ErrUnsupportedVersion = errors.New("license: unsupported AAMVA version")
	// ErrBadSubfile means a subfile designator does not match the data
	// (ValidateStructure only).
	ErrBadSubfile = errors.New("license: subfile designator does not match data")
	// ErrUnknownField is returned (wrapped in *UnknownFieldError) for a
	// requested field name that is not in the Catalog.
	ErrUnknownField = errors.New("license: unknown field")
)

// UnknownFieldError names the requested field that is not in the Catalog.
type UnknownFieldError struct{ Name string }

func (e *UnknownFieldError) Error() string { return fmt.Sprintf("license: unknown field %q", e.Name) }

// Is makes errors.Is(err, ErrUnknownField) true.
func (e *UnknownFieldError) Is(target error) bool { return target == ErrUnknownField }

// License is what a barcode says about its holder and the document.
// Empty strings and zero Dates mean the barcode did not carry the value.
type License struct {
	Header Header `json:"header"`
	// DocumentType is the first subfile type: "DL" (driver license) or
	// "ID" (identification card).
	DocumentType string `json:"document_type"`

	FirstNames  string `json:"first_names"`
	MiddleNames string `json:"middle_names,omitempty"`
	LastName    string `json:"last_name"`
	NameSuffix  string `json:"name_suffix,omitempty"`
	// Truncation holds DDE/DDF/DDG: "T" truncated, "N" not, "U" unknown.
	Truncation Truncation `json:"truncation"`

	DOB        Date `json:"dob"`
	IssueDate  Date `json:"issue_date"`
	ExpiryDate Date `json:"expiry_date"`
	// NonExpiring is set by magnetic-stripe data whose expiry month is 77.
	NonExpiring bool `json:"non_expiring,omitempty"`
	// Under18Until etc. are the DDH/DDI/DDJ dates the issuer computed.
	Under18Until Date `json:"under_18_until"`
	Under19Until Date `json:"under_19_until"`
	Under21Until Date `json:"under_21_until"`

	Sex       Sex     `json:"sex,omitempty"`
	Height    Measure `json:"height"`
	Weight    Measure `json:"weight"`
	EyeColor  string  `json:"eye_color,omitempty"`
	HairColor string  `json:"hair_color,omitempty"`

	Address Address `json:"address"`

	DocumentNumber        string `json:"document_number"`
	DocumentDiscriminator string `json:"document_discriminator,omitempty"`
	// IssuingJurisdiction is the two-letter code of the issuer, from the
	// IIN when it is known, else from the address jurisdiction.
	IssuingJurisdiction string `json:"issuing_jurisdiction"`
	// Country is the ISO 3166 alpha-3 code of the issuing country (DCG, or
	// the IIN's country).
	Country string `json:"country"`
	// Nationality is the holder's, ISO 3166-1 alpha-3 (a travel document's
	// zone: passports, ID cards); an AAMVA card carries none.
	Nationality  string `json:"nationality,omitempty"`
	VehicleClass string `json:"vehicle_class,omitempty"`
	Restrictions string `json:"restrictions,omitempty"`
	Endorsements string `json:"endorsements,omitempty"`
	// ComplianceType is DDA: "F" fully REAL ID compliant, "N" not; empty
	// when absent.
	ComplianceType string `json:"compliance_type,omitempty"`
	OrganDonor     bool   `json:"organ_donor,omitempty"`
	Veteran        bool   `json:"veteran,omitempty"`

	// Subfiles holds every subfile, element by element and raw: the DL/ID
	// one first, then the jurisdiction-specific (Zx) ones in data order.
	Subfiles []Subfile `json:"subfiles"`
	// Warnings lists every repair and doubt met while parsing.
	Warnings []Warning `json:"warnings"`
}

// Truncation flags of the three name parts (v4+).
type Truncation struct {
	Family string `json:"family,omitempty"`
	First  string `json:"first,omitempty"`
	Middle string `json:"middle,omitempty"`
}

// Address is the cardholder address (mailing, or residence when the
// barcode carries no mailing address).
type Address struct {
	Line1        string `json:"line1"`
	Line2        string `json:"line2,omitempty"`
	City         string `json:"city"`
	Jurisdiction string `json:"jurisdiction"`
	// PostalCode is "12345" or "12345-6789" in the US (a "0000" ZIP+4 means
	// unknown and is dropped), "A1A 1A1" in Canada, else as printed.
	PostalCode string `json:"postal_code"`
}

// Sex is "M", "F" or "X" (AAMVA 9, not specified).
type Sex string

// Sex values.
const (
	SexMale        Sex = "M"
	SexFemale      Sex = "F"
	SexUnspecified Sex = "X"
)

// Measure is a height or weight in the unit the card used.
type Measure struct {
	Value int    `json:"value,omitempty"`
	Unit  string `json:"unit,omitempty"` // "in" or "cm"; "lb" or "kg"
}

// Header is the AAMVA file header.
type Header struct {
	// Compliance is true when the "@" compliance indicator was found.
	Compliance        bool   `json:"compliance"`
	ElementSeparator  byte   `json:"element_separator"`
	RecordSeparator   byte   `json:"record_separator"`
	SegmentTerminator byte   `json:"segment_terminator"`
	FileType          string `json:"file_type"` // "ANSI " or the pre-standard "AAMVA"
	IIN               string `json:"iin"`
	Version           int    `json:"version"`
	// JurisdictionVersion is -1 for version 0 and 1 headers, which have
	// no such field.
	JurisdictionVersion int          `json:"jurisdiction_version"`
	Entries             int          `json:"entries"`
	Designators         []Designator `json:"designators"`
}

// Designator is one subfile designator of the header.
type Designator struct {
	Type   string `json:"type"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
}

// Subfile is one subfile: "DL", "ID" or a jurisdiction-specific "Zx".
type Subfile struct {
	Type string `json:"type"`
	// Start is where the subfile was found in the (cleaned) input; it
	// differs from the designator's offset when the data was repaired.
	Start    int       `json:"start"`
	Elements []Element `json:"elements"`
	Raw      string    `json:"raw"`
}

// Element is one data element: a three-letter ID and its value with
// padding removed.
type Element struct {
	ID    string `json:"id"`
	Value string `json:"value"`
	// Name is the standard's name for a DL/ID element of the header's
	// version; empty for jurisdiction-specific and unknown elements.
	Name string `json:"name,omitempty"`
}

// Get returns the value of the first element with the given ID.
func (s Subfile) Get(id string) (string, bool) {
	for _, e := range s.Elements {
		if e.ID == id {
			return e.Value, true
		}
	}
	return "", false
}

// Warning is one repair or doubt met while parsing.
type Warning struct {
	Code   WarningCode `json:"code"`
	Detail string      `json:"detail"`
}

// WarningCode classifies a Warning.
type WarningCode string

// Warning codes.
const (
	WarnHeaderMissing     WarningCode = "header_missing"
	WarnHeaderGarbled     WarningCode = "header_garbled"
	WarnUnknownIIN        WarningCode = "unknown_iin"
	WarnSubfileOffset     WarningCode = "subfile_offset"
	WarnSubfileLength     WarningCode = "subfile_length"
	WarnSubfileMissing    WarningCode = "subfile_missing"
	WarnSeparatorsMissing WarningCode = "separators_missing"
	WarnUnknownElement    WarningCode = "unknown_element"
	WarnDuplicateElement  WarningCode = "duplicate_element"
	WarnNonASCII          WarningCode = "non_ascii"
	WarnBadValue          WarningCode = "bad_value"
	WarnDateFormat        WarningCode = "date_format"
	WarnNameAmbiguous     WarningCode = "name_ambiguous"
	WarnMismatch          WarningCode = "mismatch"
	WarnInconsistentDates WarningCode = "inconsistent_dates"
	WarnMissingValue      WarningCode = "missing_value"
)

func (l *License) warn(code WarningCode, format string, args ...any) {
	l.Warnings = append(l.Warnings, Warning{Code: code, Detail: fmt.Sprintf(format, args...)})
}

// HasWarning reports whether a warning with the code was recorded.
func (l License) HasWarning(code WarningCode) bool { return hasWarning(l.Warnings, code) }

func hasWarning(ws []Warning, code WarningCode) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// Element returns the value of an element of the DL/ID subfile.
func (l License) Element(id string) (string, bool) {
	for _, s := range l.Subfiles {
		if s.Type == l.DocumentType {
			return s.Get(id)
		}
	}
	return "", false
}
