package verifier

import "github.com/idgate/idgate/verifier/license"

// DeriveType is the documented rule (docs/decisions.md, Verifications); the request has no type field:
//   - Full if phone verification, address verification, the license photo or
//     the front/barcode match is on, or any requested field is beyond name
//     and address (license.ClassBeyond);
//   - Basic if name or address fields, or the location check, are requested;
//   - Core otherwise.
//
// Unknown field names are refused before this runs; here they count as
// nothing.
func DeriveType(s Settings) Type {
	class, _ := license.Classify(knownFields(s.RequestedFields))
	switch {
	case s.PhoneVerification, s.AddressVerification, s.IncludeLicensePhoto, s.FrontBarcodeMatch,
		class == license.ClassBeyond:
		return TypeFull
	case class == license.ClassNameAddress, s.LocationConsistency:
		return TypeBasic
	}
	return TypeCore
}

func knownFields(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if _, ok := license.LookupField(n); ok {
			out = append(out, n)
		}
	}
	return out
}
