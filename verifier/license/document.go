package license

// The methods here make License the first adapter of the identity-document
// port (verifier.Document): what the result, the address check and
// geocoding read from a document, whatever its kind. Another kind (a
// passport read from its MRZ) answers the same methods in the same
// vocabulary (Checks, Holder, Printed, FrontMatch, the Catalog's names),
// which is this package's because the specification names the document
// "license" (license_data, license_expired, license_appears_real).

// Holder is whom a document names and where it says they live: what the
// address check and geocoding read. Empty members are values the document
// does not carry (a passport has no address).
type Holder struct {
	FirstNames, LastName string
	Address              Address
	// Country is the issuing country, ISO 3166 alpha-3.
	Country string
}

// Holder is the license's holder: the barcode's names, address and
// issuing country.
func (l License) Holder() Holder {
	return Holder{FirstNames: l.FirstNames, LastName: l.LastName, Address: l.Address, Country: l.Country}
}

// Fields is license_data from the license (Extract).
func (l License) Fields(requested []string) (map[string]any, error) { return Extract(l, requested) }

// MatchFront is front_barcode_match: the printed front against the
// barcode (CompareFront).
func (l License) MatchFront(p Printed) FrontMatch { return CompareFront(l, p) }
