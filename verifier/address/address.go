// Package address is address verification's domain: what is asked of an
// address-verification service about the document holder's name and address, what
// it answers (the result's address_verification), the Provider port, and
// the SubscriberMatcher port with its rule for the names at the address
// (subscriber.go). Adapters: lob (Lob's US Verifications API:
// deliverability) and dev (a deterministic stand-in for make run, refused
// outside dev); the subscriber records are the phone providers' (twilio's
// Identity Match, dev's made-up ones).
package address

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/idgate/idgate/verifier/license"
)

// Query is the license's name and address as read from the barcode.
type Query struct {
	FirstNames, LastName string
	Line1, Line2, City   string
	// State is the two-letter jurisdiction (US state or territory, Canadian
	// province).
	State, PostalCode string
	// Country is the issuing country, ISO 3166 alpha-3 (USA, CAN).
	Country string
}

// Result is what the provider found: the result's address_verification.
// NamesChecked says whether the provider matched names at the address at
// all; when it did not, FullName and LastNameOnly mean nothing and the
// result reports them as null.
type Result struct {
	// Deliverable: the address is a real postal address mail is delivered
	// to (for Lob: USPS deliverable, with or without a unit correction).
	Deliverable  bool
	NamesChecked bool
	// FullName: the first and last name are on record at the address.
	FullName bool
	// LastNameOnly: the last name alone matched (often a household member).
	LastNameOnly bool
}

// Provider checks an address (and, where it can, the names at it).
type Provider interface {
	// Name labels the provider in logs ("lob", "dev").
	Name() string
	// Verify checks q. ErrNotCovered when the address is outside what the
	// provider knows (the check cannot run); ErrUnavailable when it cannot
	// answer now.
	Verify(ctx context.Context, q Query) (Result, error)
}

// Errors of a Provider.
var (
	ErrNotCovered  = errors.New("address outside the provider's coverage")
	ErrUnavailable = errors.New("address provider unavailable")
)

var usZIP = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)

// FromHolder is the query for a document's holder; ok is false when the
// document carries no street address to check (then the check cannot run
// and address_verification is absent: a passport has none).
func FromHolder(h license.Holder) (Query, bool) {
	a := h.Address
	q := Query{FirstNames: strings.TrimSpace(h.FirstNames), LastName: strings.TrimSpace(h.LastName),
		Line1: strings.TrimSpace(a.Line1), Line2: strings.TrimSpace(a.Line2), City: strings.TrimSpace(a.City),
		State: strings.ToUpper(strings.TrimSpace(a.Jurisdiction)), PostalCode: strings.TrimSpace(a.PostalCode),
		Country: strings.ToUpper(strings.TrimSpace(h.Country))}
	if q.Line1 == "" || (q.PostalCode == "" && (q.City == "" || q.State == "")) {
		return Query{}, false
	}
	return q, true
}

// US reports whether q is a US address (country USA, or unknown with a US
// ZIP code).
func (q Query) US() bool {
	return q.Country == "USA" || (q.Country == "" && usZIP.MatchString(q.PostalCode))
}
