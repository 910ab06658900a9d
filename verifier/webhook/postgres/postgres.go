// Package postgres is the webhook outbox on PostgreSQL (pgx v5). Its tables
// are created by the verifier store's migration 0004_webhooks.sql
// (verifier/postgres), the one schema source.
//
// Claims use SELECT ... FOR UPDATE SKIP LOCKED inside one UPDATE, so
// workers on many instances take disjoint deliveries without waiting on each
// other; the lease they set keeps a delivery to one attempt at a time after
// the claiming transaction commits.
package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/idgate/idgate/verifier/webhook"
)

// Queue is the PostgreSQL webhook.Queue.
type Queue struct {
	pool *pgxpool.Pool
}

var _ webhook.Queue = (*Queue)(nil)

// New returns a queue on pool.
func New(pool *pgxpool.Pool) *Queue { return &Queue{pool: pool} }

// Enqueue adds d, due at now, inside the caller's transaction: the one that
// moves the verification to completed or manual_review, so the delivery
// exists if and only if the state change committed.
func Enqueue(ctx context.Context, tx pgx.Tx, d webhook.Delivery, now time.Time) error {
	if err := webhook.CheckNew(d); err != nil {
		return fmt.Errorf("enqueue webhook: %w", err)
	}
	headers := d.Headers
	if headers == nil {
		headers = map[string]string{}
	}
	_, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries
		(id, account_id, verification_id, url, headers, payload, state, attempts, next_attempt_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $7)`,
		d.ID, d.AccountID, d.VerificationID, d.URL, headers, d.Payload, now)
	if err != nil {
		return fmt.Errorf("enqueue webhook: %w", err)
	}
	return nil
}

// Forget deletes a verification's deliveries and their log (ON DELETE
// CASCADE) inside the caller's transaction (the one deleting the
// verification): deleted verifications send no webhook, not even a pending
// retry. An attempt in flight then finds its lease gone and records nothing.
func Forget(ctx context.Context, tx pgx.Tx, verificationID string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE verification_id = $1`, verificationID); err != nil {
		return fmt.Errorf("forget webhooks of %s: %w", verificationID, err)
	}
	return nil
}

const deliveryColumns = `id, account_id, verification_id, url, headers, payload, state, attempts, next_attempt_at, created_at`

// Claim implements webhook.Queue.
func (q *Queue) Claim(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]webhook.Delivery, error) {
	token, err := webhook.NewLease()
	if err != nil {
		return nil, fmt.Errorf("claim webhooks: %w", err)
	}
	rows, err := q.pool.Query(ctx, `UPDATE webhook_deliveries d SET lease_token = $1, lease_until = $2
		FROM (SELECT id FROM webhook_deliveries
			WHERE state = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
			ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED) c
		WHERE d.id = c.id
		RETURNING d.id, d.account_id, d.verification_id, d.url, d.headers, d.payload, d.state, d.attempts, d.next_attempt_at, d.created_at`,
		token, now.Add(lease), now, limit)
	if err != nil {
		return nil, fmt.Errorf("claim webhooks: %w", err)
	}
	ds, err := scanDeliveries(rows)
	if err != nil {
		return nil, fmt.Errorf("claim webhooks: %w", err)
	}
	for i := range ds {
		ds[i].Lease = token
		ds[i].Attempt++
	}
	return ds, nil
}

// Record implements webhook.Queue.
func (q *Queue) Record(ctx context.Context, d webhook.Delivery, res webhook.AttemptResult, out webhook.Outcome) error {
	var next, finished *time.Time
	if out.State == webhook.StatePending {
		next = &out.NextAttemptAt
	} else {
		finished = &res.StartedAt
	}
	err := pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE webhook_deliveries
			SET state = $1, attempts = $2, next_attempt_at = $3, finished_at = $4, lease_token = NULL, lease_until = NULL
			WHERE id = $5 AND lease_token = $6`, out.State, d.Attempt, next, finished, d.ID, d.Lease)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return webhook.ErrLeaseLost
		}
		_, err = tx.Exec(ctx, `INSERT INTO webhook_attempts
			(delivery_id, attempt, started_at, status_code, error, duration_us, snippet) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			d.ID, d.Attempt, res.StartedAt, res.StatusCode, res.ErrorText(), res.Duration.Microseconds(), res.Snippet)
		return err
	})
	if err != nil {
		return fmt.Errorf("record webhook attempt %s#%d: %w", d.ID, d.Attempt, err)
	}
	return nil
}

// History implements webhook.Queue.
func (q *Queue) History(ctx context.Context, verificationID string) ([]webhook.DeliveryLog, error) {
	rows, err := q.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE verification_id = $1 ORDER BY created_at DESC, seq DESC`, verificationID)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	ds, err := scanDeliveries(rows)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	rows, err = q.pool.Query(ctx, `SELECT a.delivery_id, a.attempt, a.started_at, a.status_code, a.error, a.duration_us, a.snippet
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.verification_id = $1 ORDER BY a.attempt`, verificationID)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	byID := make(map[string][]webhook.AttemptRecord)
	var (
		a   webhook.AttemptRecord
		dur int64
	)
	_, err = pgx.ForEachRow(rows, []any{&a.DeliveryID, &a.Attempt, &a.StartedAt, &a.StatusCode, &a.Error, &dur, &a.Snippet}, func() error {
		a.StartedAt, a.Duration = a.StartedAt.UTC(), time.Duration(dur)*time.Microsecond
		byID[a.DeliveryID] = append(byID[a.DeliveryID], a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	out := make([]webhook.DeliveryLog, len(ds))
	for i, d := range ds {
		out[i] = webhook.DeliveryLog{Delivery: d, Attempts: byID[d.ID]}
	}
	return out, nil
}

// Retry implements webhook.Queue. A transaction-scoped advisory lock on the
// verification serialises concurrent retries, so two clicks start one cycle.
func (q *Queue) Retry(ctx context.Context, verificationID, newID string, now time.Time) (webhook.Delivery, error) {
	var d webhook.Delivery
	err := pgx.BeginFunc(ctx, q.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('webhook_retry'), hashtext($1))`, verificationID); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
			WHERE verification_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`, verificationID)
		if err != nil {
			return err
		}
		ds, err := scanDeliveries(rows)
		if err != nil {
			return err
		}
		if len(ds) == 0 || ds[0].State != webhook.StateFailed {
			return webhook.ErrNotFailed
		}
		d = ds[0]
		d.ID = newID
		if err := Enqueue(ctx, tx, d, now); err != nil {
			return err
		}
		at := now.UTC().Truncate(time.Microsecond)
		d.State, d.Attempt, d.NextAttemptAt, d.CreatedAt = webhook.StatePending, 0, at, at
		return nil
	})
	if err != nil {
		return webhook.Delivery{}, fmt.Errorf("retry webhook for %s: %w", verificationID, err)
	}
	return d, nil
}

// Purge implements webhook.Queue.
func (q *Queue) Purge(ctx context.Context, before time.Time, limit int) (int, error) {
	tag, err := q.pool.Exec(ctx, `UPDATE webhook_deliveries SET payload = '\x'::bytea, headers = '{}'
		WHERE id IN (SELECT id FROM webhook_deliveries
			WHERE state = 'delivered' AND octet_length(payload) > 0 AND finished_at < $1 LIMIT $2)`, before, limit)
	if err != nil {
		return 0, fmt.Errorf("purge webhook payloads: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

// scanDeliveries reads deliveryColumns rows and closes them. Attempt is the
// number of attempts recorded so far.
func scanDeliveries(rows pgx.Rows) ([]webhook.Delivery, error) {
	var ds []webhook.Delivery
	var (
		d       webhook.Delivery
		headers []byte
		next    *time.Time
	)
	_, err := pgx.ForEachRow(rows, []any{&d.ID, &d.AccountID, &d.VerificationID, &d.URL, &headers, &d.Payload,
		&d.State, &d.Attempt, &next, &d.CreatedAt}, func() error {
		c := d
		c.Headers = nil
		if err := json.Unmarshal(headers, &c.Headers); err != nil {
			return fmt.Errorf("headers of %s: %w", c.ID, err)
		}
		c.Payload = append([]byte(nil), d.Payload...)
		c.CreatedAt = c.CreatedAt.UTC()
		if next != nil {
			c.NextAttemptAt = next.UTC()
		}
		ds = append(ds, c)
		return nil
	})
	return ds, err
}
