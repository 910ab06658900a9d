package license

import (
	"errors"
)

// FieldClass tells whether a requested field is a name or address field
// (a request with only these is Basic) or beyond them (any one makes the
// request Full).
type FieldClass string

// Field classes.
const (
	ClassNameAddress FieldClass = "name_address"
	ClassBeyond      FieldClass = "beyond_name_address"
)

// Field is one name a verification may list in requested_fields, and the
// key it has in license_data.
type Field struct {
	Name string
	// Type is the JSON type of the value: "string", "integer" or "boolean".
	// Every value is null when the license does not carry it.
	Type string
	// Format refines Type: "date" is YYYY-MM-DD.
	Format      string
	Class       FieldClass
	Description string
	value       func(License) any
}

// Catalog is every field that can be requested, in documentation order.
var Catalog = []Field{
	{"first_names", "string", "", ClassNameAddress, "First name(s) as printed (DAC; the first of DCT's given names; DAA's second part)", str(func(l License) string { return l.FirstNames })},
	{"middle_names", "string", "", ClassNameAddress, "Middle name(s), several separated by spaces", str(func(l License) string { return l.MiddleNames })},
	{"last_name", "string", "", ClassNameAddress, "Family name (DCS, DAB, DAA's first part)", str(func(l License) string { return l.LastName })},
	{"name_suffix", "string", "", ClassNameAddress, "Suffix such as JR, SR, 3RD (DCU, DAE)", str(func(l License) string { return l.NameSuffix })},
	{"address_line1", "string", "", ClassNameAddress, "Street address (DAG)", str(func(l License) string { return l.Address.Line1 })},
	{"address_line2", "string", "", ClassNameAddress, "Second address line (DAH)", str(func(l License) string { return l.Address.Line2 })},
	{"address_city", "string", "", ClassNameAddress, "City (DAI)", str(func(l License) string { return l.Address.City })},
	{"address_state", "string", "", ClassNameAddress, "Two-letter state, province or territory code of the address (DAJ)", str(func(l License) string { return l.Address.Jurisdiction })},
	{"address_postal_code", "string", "", ClassNameAddress, "12345 or 12345-6789 (US), A1A 1A1 (Canada) (DAK)", str(func(l License) string { return l.Address.PostalCode })},

	{"dob", "string", "date", ClassBeyond, "Date of birth (DBB)", date(func(l License) Date { return l.DOB })},
	{"sex", "string", "", ClassBeyond, "M, F or X (not specified) (DBC)", str(func(l License) string { return string(l.Sex) })},
	{"document_type", "string", "", ClassBeyond, "DL (driver license) or ID (identification card)", str(func(l License) string { return l.DocumentType })},
	{"document_number", "string", "", ClassBeyond, "License or ID number (DAQ)", str(func(l License) string { return l.DocumentNumber })},
	{"document_discriminator", "string", "", ClassBeyond, "Number identifying this issuance of the document (DCF)", str(func(l License) string { return l.DocumentDiscriminator })},
	{"issue_date", "string", "date", ClassBeyond, "Issue date (DBD)", date(func(l License) Date { return l.IssueDate })},
	{"expiry_date", "string", "date", ClassBeyond, "Expiry date (DBA)", date(func(l License) Date { return l.ExpiryDate })},
	{"issuing_jurisdiction", "string", "", ClassBeyond, "Two-letter code of the issuer, from the IIN", str(func(l License) string { return l.IssuingJurisdiction })},
	{"country", "string", "", ClassBeyond, "Issuing country, ISO 3166 alpha-3: USA or CAN (DCG); a passport's issuing state", str(func(l License) string { return l.Country })},
	{"nationality", "string", "", ClassBeyond, "Holder's nationality, ISO 3166 alpha-3, from a passport's or ID card's machine-readable zone; null for a license, which carries none", str(func(l License) string { return l.Nationality })},
	{"vehicle_class", "string", "", ClassBeyond, "Jurisdiction vehicle class (DCA, DAR)", str(func(l License) string { return l.VehicleClass })},
	{"restrictions", "string", "", ClassBeyond, "Jurisdiction restriction codes (DCB, DAS)", str(func(l License) string { return l.Restrictions })},
	{"endorsements", "string", "", ClassBeyond, "Jurisdiction endorsement codes (DCD, DAT)", str(func(l License) string { return l.Endorsements })},
	{"height_cm", "integer", "", ClassBeyond, "Height in whole centimetres (DAU, DAV; inches converted)", num(func(l License) int { return l.Height.Centimetres() })},
	{"weight_kg", "integer", "", ClassBeyond, "Weight in whole kilograms (DAX, DAW; pounds converted)", num(func(l License) int { return l.Weight.Kilograms() })},
	{"eye_color", "string", "", ClassBeyond, "ANSI D-20 eye colour code: BLK BLU BRO GRY GRN HAZ MAR PNK DIC UNK (DAY)", str(func(l License) string { return l.EyeColor })},
	{"hair_color", "string", "", ClassBeyond, "ANSI D-20 hair colour code: BAL BLK BLN BRO GRY RED SDY WHI UNK (DAZ)", str(func(l License) string { return l.HairColor })},
	{"real_id", "boolean", "", ClassBeyond, "REAL ID compliant: true for DDA F, false for DDA N", realID},
	{"under_18_until", "string", "date", ClassBeyond, "Issuer's under-18-until date (DDH)", date(func(l License) Date { return l.Under18Until })},
	{"under_19_until", "string", "date", ClassBeyond, "Issuer's under-19-until date (DDI)", date(func(l License) Date { return l.Under19Until })},
	{"under_21_until", "string", "date", ClassBeyond, "Issuer's under-21-until date (DDJ)", date(func(l License) Date { return l.Under21Until })},
}

func str(f func(License) string) func(License) any {
	return func(l License) any {
		if v := f(l); v != "" {
			return v
		}
		return nil
	}
}

func date(f func(License) Date) func(License) any {
	return func(l License) any {
		if d := f(l); !d.IsZero() {
			return d.String()
		}
		return nil
	}
}

func num(f func(License) int) func(License) any {
	return func(l License) any {
		if n := f(l); n > 0 {
			return n
		}
		return nil
	}
}

func realID(l License) any {
	switch l.ComplianceType {
	case "F":
		return true
	case "N":
		return false
	}
	return nil
}

// LookupField finds a catalog field by name.
func LookupField(name string) (Field, bool) {
	for _, f := range Catalog {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// CheckFields reports every requested name missing from the Catalog, each
// as an *UnknownFieldError (errors.Is(err, ErrUnknownField) holds).
func CheckFields(requested []string) error {
	var errs []error
	for _, name := range requested {
		if _, ok := LookupField(name); !ok {
			errs = append(errs, &UnknownFieldError{Name: name})
		}
	}
	return errors.Join(errs...)
}

// Classify is ClassBeyond if any requested field is beyond name and
// address, ClassNameAddress if all are name or address fields, and "" for
// an empty request.
func Classify(requested []string) (FieldClass, error) {
	if err := CheckFields(requested); err != nil {
		return "", err
	}
	var c FieldClass
	for _, name := range requested {
		f, _ := LookupField(name)
		if f.Class == ClassBeyond {
			return ClassBeyond, nil
		}
		c = ClassNameAddress
	}
	return c, nil
}

// Extract is license_data: exactly the requested fields, each null when
// the license does not carry it. An unknown name fails the whole call.
func Extract(l License, requested []string) (map[string]any, error) {
	if err := CheckFields(requested); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(requested))
	for _, name := range requested {
		f, _ := LookupField(name)
		out[name] = f.value(l)
	}
	return out, nil
}
