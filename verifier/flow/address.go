package flow

import (
	"context"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/address"
	"github.com/idgate/idgate/verifier/license"
)

// addressTimeout bounds the address check: it runs inside the end user's
// submit, and a check that does not answer in time did not run.
const addressTimeout = 8 * time.Second

// addressCheck is address_verification for the license: nil when it could
// not run (no provider, no address on the license, outside the provider's
// coverage, the provider failing), so the member is absent, not false.
// The reason is logged without the address.
func (f *Flow) addressCheck(ctx context.Context, l license.License) *verifier.AddressVerification {
	if f.Address == nil {
		return nil
	}
	q, ok := address.FromLicense(l)
	if !ok {
		f.log().Info("address check not run: the license carries no complete address", "provider", f.Address.Name())
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, addressTimeout)
	defer cancel()
	r, err := f.Address.Verify(ctx, q)
	if err != nil {
		f.log().Warn("address check not run", "provider", f.Address.Name(), "err", err)
		return nil
	}
	out := &verifier.AddressVerification{Deliverable: r.Deliverable}
	if r.NamesChecked {
		full, last := r.FullName, r.LastNameOnly && !r.FullName
		out.NameAtAddress, out.LastNameAtAddress = &full, &last
	}
	return out
}
