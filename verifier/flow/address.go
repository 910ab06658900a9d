package flow

import (
	"context"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/address"
)

// addressTimeout bounds the address check: it runs inside the end user's
// submit, and a check that does not answer in time did not run.
const addressTimeout = 8 * time.Second

// addressCheck is address_verification for v's document: nil when it could
// not run (no provider, no address on the document, outside the provider's
// coverage, the provider failing), so the member is absent, not false. A
// test verification runs on address.TestProvider, never the configured one.
// When the provider matches no names, they come from the subscriber record
// of the number the end user verified (number; "" when none was), else
// stay null. Reasons are logged without the address or the names.
func (f *Flow) addressCheck(ctx context.Context, v verifier.Verification, doc verifier.Document, number string) *verifier.AddressVerification {
	if f.Address == nil {
		return nil
	}
	q, ok := address.FromHolder(doc.Holder())
	if !ok {
		f.log().Info("address check not run: the document carries no complete address", "provider", f.Address.Name())
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, addressTimeout)
	defer cancel()
	provider := f.addressProvider(v)
	r, err := provider.Verify(ctx, q)
	if err != nil {
		f.log().Warn("address check not run", "provider", provider.Name(), "err", err)
		return nil
	}
	if !r.NamesChecked && f.Subscribers != nil && number != "" {
		f.subscriberNames(ctx, q, number, &r)
	}
	out := &verifier.AddressVerification{Deliverable: r.Deliverable}
	if r.NamesChecked {
		full, last := r.FullName, r.LastNameOnly && !r.FullName
		out.NameAtAddress, out.LastNameAtAddress = &full, &last
	}
	return out
}

// subscriberNames fills r's names from the subscriber record of number,
// when it answers every field the rule needs (address.SubscriberMatch.Names).
func (f *Flow) subscriberNames(ctx context.Context, q address.Query, number string, r *address.Result) {
	m, err := f.Subscribers.MatchSubscriber(ctx, number, q)
	if err != nil {
		f.log().Warn("names at the address not checked", "source", f.Subscribers.Name(), "err", err)
		return
	}
	full, last, ok := m.Names()
	if !ok {
		f.log().Info("names at the address not checked: the subscriber record lacks data", "source", f.Subscribers.Name())
		return
	}
	r.NamesChecked, r.FullName, r.LastNameOnly = true, full, last
}

// verifiedNumber is the number v's phone step verified, "" when it did
// not, and always on a test verification: its number was "verified" with
// the test code (phone.TestProvider) and must never reach a paid source.
func verifiedNumber(v verifier.Verification, p *PhoneState) string {
	if p == nil || !p.Verified || v.Mode == verifier.ModeTest {
		return ""
	}
	return p.Number.E164
}

// addressProvider is the provider of v's address check: f.Address, or
// address.TestProvider for a test verification (chosen by its mode, never
// by configuration: the configured provider bills each check).
func (f *Flow) addressProvider(v verifier.Verification) address.Provider {
	if v.Mode == verifier.ModeTest {
		return address.TestProvider{}
	}
	return f.Address
}
