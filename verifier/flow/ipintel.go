package flow

import (
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/ipintel"
	"github.com/idgate/idgate/verifier/license"
)

// IPIntel is the IP intelligence port (*ipintel.Service over the installed
// data, verifier/ipintel/ipdb). back and submit are the client IPs recorded
// at the barcode step and at submission ("" when not recorded).
type IPIntel interface {
	// Connection assesses the submission's IP (else the barcode step's);
	// false when neither is a usable IP.
	Connection(back, submit string) (ipintel.Assessment, bool, error)
	// Locate is location_consistency for the license address.
	Locate(addr ipintel.Address, back, submit string) (ipintel.Consistency, error)
}

// connection fills the outcome's IP members from the session's recorded
// IPs. Without IP data, without a usable IP, or when the data cannot be
// read, the members stay nil: the check could not run, so the result omits
// them (absent, not false). location_consistency is computed only when the
// verification requested it.
func (f *Flow) connection(o *verifier.Outcome, s Session, wantLocation bool) {
	if f.IP == nil {
		return
	}
	if a, ok, err := f.IP.Connection(s.BackIP, s.SubmitIP); err == nil && ok {
		o.IP = &verifier.IPIntel{Found: a.Found, Proxy: a.Proxy, Type: string(a.Type), Description: a.Description}
	}
	doc := s.capture().Document
	if !wantLocation || doc == nil {
		return
	}
	if c, err := f.IP.Locate(holderAddress(doc.Holder()), s.BackIP, s.SubmitIP); err == nil {
		o.Location = &c
	}
}

// holderAddress is the part of the document's address geocoding reads.
func holderAddress(h license.Holder) ipintel.Address {
	return ipintel.Address{City: h.Address.City, Jurisdiction: h.Address.Jurisdiction,
		PostalCode: h.Address.PostalCode, Country: h.Country}
}
