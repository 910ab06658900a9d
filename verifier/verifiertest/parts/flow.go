package parts

import (
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// Flow wires f to the verifier's store as serve does: a nil Store or
// Verifications becomes store, a nil Sealer seals with sealer, a nil Now
// is now, zero Limits are flow.DefaultLimits. Engines, Rand, IP and the
// optional steps' providers are the caller's. It returns f.
func Flow(f *flow.Flow, store *sqlstore.DB, sealer *seal.Sealer, now func() time.Time) *flow.Flow {
	if f.Store == nil {
		f.Store = store
	}
	if f.Verifications == nil {
		f.Verifications = store
	}
	if f.Sealer == nil {
		f.Sealer = flow.SealWith(sealer)
	}
	if f.Now == nil {
		f.Now = now
	}
	if f.Limits == (flow.Limits{}) {
		f.Limits = flow.DefaultLimits
	}
	return f
}
