package verifier

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/idgate/idgate/verifier/license"
)

// Document is the port of the identity document the end user showed, as
// its kind's reader read it: everything the result is built from that
// depends on the document (ages, expiry, license_data, the printed front's
// consistency) and the holder the address check and geocoding read. The
// first adapter is license.License, the driver's license and state ID
// card read from the AAMVA barcode; a passport read from its machine-readable
// zone is the next (docs/documents.md). Which steps capture each kind is
// the flow's (flow.DocumentKind).
//
// Its vocabulary (Checks, Holder, Printed, FrontMatch, the Catalog's field
// names) is verifier/license's: the specification calls the document a
// license throughout (license_data, license_expired), and every kind
// answers in those members.
type Document interface {
	// Check derives age and expiry on the calendar day of now in now's
	// location (license.License.Check's rules: no birth date is under
	// every age, no expiry date is expired).
	Check(now time.Time) license.Checks
	// Fields is license_data: exactly the requested names of
	// license.Catalog, each nil when the document does not carry it.
	Fields(requested []string) (map[string]any, error)
	// MatchFront is front_barcode_match: what OCR read on the document's
	// printed personal-data zone against its machine-readable data.
	MatchFront(printed license.Printed) license.FrontMatch
	// Holder is the holder's names and address (address_verification,
	// location_consistency).
	Holder() license.Holder
}

// unread is the document of a verification whose document was never read
// (every liveness attempt failed before the barcode step): a license that
// carries nothing, so over_18 and over_21 are false, license_expired is
// true, every requested field is null and the front compares as
// unreadable — the rules for missing values every kind shares.
var unread Document = license.License{}

// DocumentKind names a kind of identity document the end user may show.
// The create option accepted_documents lists the kinds a verification
// accepts; the flow declares each kind's steps (flow.DocumentKind);
// docs/documents.md says how a kind plugs in.
type DocumentKind string

// The kinds. DriversLicense is every AAMVA card: a driver's license or a
// state (or provincial) ID card, read from the front photo and the PDF417
// barcode on the back. Passport (ICAO 9303 TD3) is read from its data
// page; IDCard (TD1: a card with a machine-readable zone, such as a
// passport card or a national ID) from its front (the portrait) and its
// back (the zone).
const (
	DriversLicense DocumentKind = "drivers_license"
	Passport       DocumentKind = "passport"
	IDCard         DocumentKind = "id_card"
)

// DocumentKinds are every kind's name, in documentation order.
var DocumentKinds = []DocumentKind{DriversLicense, Passport, IDCard}

// AvailableDocuments are the kinds the flow captures today (flow.Kinds;
// a test holds the two equal). A verification may accept only these: one
// accepting a kind the page cannot capture would strand the end user.
var AvailableDocuments = []DocumentKind{DriversLicense, Passport, IDCard}

// checkDocuments validates accepted_documents: at least one kind, each
// known, listed once and available (docs/documents.md).
func checkDocuments(fe *fieldErrors, kinds []DocumentKind) {
	const field = "accepted_documents"
	switch {
	case len(kinds) == 0:
		fe.add(field, "invalid_value", "list at least one of %s", KindList(DocumentKinds))
		return
	case len(kinds) > len(DocumentKinds):
		// One detail, not one per item, for an oversized list.
		fe.add(field, "too_many", "at most %d kinds", len(DocumentKinds))
		return
	}
	seen := map[DocumentKind]bool{}
	for i, k := range kinds {
		item := fmt.Sprintf("%s[%d]", field, i)
		switch {
		case !slices.Contains(DocumentKinds, k):
			fe.add(item, "invalid_value", "%q is not a document kind: one of %s", k, KindList(DocumentKinds))
		case seen[k]:
			fe.add(item, "duplicate", "%q is listed twice", k)
		case !slices.Contains(AvailableDocuments, k):
			fe.add(item, "not_available", "%s cannot be verified yet; available: %s", k, KindList(AvailableDocuments))
		}
		seen[k] = true
	}
}

// KindList is kinds as the messages name them: "drivers_license, passport".
func KindList(kinds []DocumentKind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
