package postgres

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
	whpostgres "github.com/idgate/idgate/verifier/webhook/postgres"
)

// webhookStatusCol is verifier.Verification.WebhookStatus in SQL: the state
// of the verification's latest delivery, empty when it has none. Derived on
// read rather than copied into verifications, so it can never disagree with
// the outbox (one index probe per row).
const webhookStatusCol = `coalesce((SELECT d.state FROM webhook_deliveries d WHERE d.verification_id = verifications.id::text
	ORDER BY d.created_at DESC, d.seq DESC LIMIT 1), '')`

// verificationReadCols is what scanVerification reads: the stored columns
// and the derived webhook status.
const verificationReadCols = verificationCols + `, ` + webhookStatusCol

// webhookHooks holds what the server plugs into the store for deliveries.
type webhookHooks struct {
	wake atomic.Pointer[func()]
}

// OnWebhookEnqueued sets fn to be called after every commit that enqueued a
// webhook delivery (the worker's Wake, so the first attempt does not wait for
// its next poll). Enqueueing itself needs nothing: the outbox is part of the
// schema. Safe to call at any time; nil turns it off.
func (s *Store) OnWebhookEnqueued(fn func()) {
	if fn == nil {
		s.hooks.wake.Store(nil)
		return
	}
	s.hooks.wake.Store(&fn)
}

// WebhookQueue is the delivery outbox of this database for the worker, on
// the store's pool.
func (s *Store) WebhookQueue() webhook.Queue { return whpostgres.New(s.pool) }

// enqueueWebhook enqueues, inside an UpdateVerification transaction, the
// delivery the update calls for (verifier.DeliveryFor), due at the update's
// UpdatedAt. It reports whether it enqueued one.
func enqueueWebhook(ctx context.Context, tx pgx.Tx, old, v verifier.Verification) (bool, error) {
	d, ok := verifier.DeliveryFor(old, v)
	if !ok {
		return false, nil
	}
	return true, whpostgres.Enqueue(ctx, tx, d, v.UpdatedAt)
}

// webhookEnqueued runs the wake hook after a committed enqueue.
func (s *Store) webhookEnqueued() {
	if fn := s.hooks.wake.Load(); fn != nil {
		(*fn)()
	}
}
