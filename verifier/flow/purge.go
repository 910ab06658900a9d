package flow

import (
	"context"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

// Purge removes a finished verification's personal data: the result's
// (verifier's PurgePII: license_data, license_photo, the phone lookup;
// pii_purged_at set) and the flow's own (session and review images).
func (f *Flow) Purge(ctx context.Context, accountID, id string) (verifier.Verification, error) {
	v, err := f.domain().PurgePII(ctx, accountID, id)
	if err != nil {
		return verifier.Verification{}, err
	}
	if err := f.Store.DeleteFlowData(ctx, id); err != nil {
		return verifier.Verification{}, fmt.Errorf("purge personal data: %w", err)
	}
	return v, nil
}

// DefaultPurgeBatch is how many verifications one purge statement lists.
const DefaultPurgeBatch = 200

// PurgeDue is the scheduled purge, run by the sweeper on every instance:
// completed verifications past retention lose their personal data, and
// links that ended without a result (expired, canceled, deleted) lose the
// flow's copies. retention 0 never purges results. Purging twice changes
// nothing, so instances may overlap. It returns how many verifications it
// purged.
func (f *Flow) PurgeDue(ctx context.Context, retention time.Duration) (int, error) {
	n := 0
	for {
		ids, err := f.Store.AbandonedFlows(ctx, DefaultPurgeBatch)
		if err != nil {
			return n, fmt.Errorf("purge abandoned flows: %w", err)
		}
		for _, id := range ids {
			if err := f.Store.DeleteFlowData(ctx, id); err != nil {
				return n, fmt.Errorf("purge abandoned flows: %w", err)
			}
			n++
		}
		if len(ids) < DefaultPurgeBatch {
			break
		}
	}
	if retention <= 0 {
		return n, nil
	}
	cutoff := f.now().Add(-retention)
	for {
		refs, err := f.Store.PurgeDue(ctx, cutoff, DefaultPurgeBatch)
		if err != nil {
			return n, fmt.Errorf("scheduled purge: %w", err)
		}
		for _, r := range refs {
			if _, err := f.Purge(verifier.WithMode(ctx, r.Mode), r.AccountID, r.ID); err != nil {
				return n, fmt.Errorf("scheduled purge: %w", err)
			}
			n++
		}
		if len(refs) < DefaultPurgeBatch {
			return n, nil
		}
	}
}
