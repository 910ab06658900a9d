// Package sqlite is the webhook outbox on SQLite (modernc.org/sqlite through
// database/sql), for the embedded default. Its tables are created by the
// verifier store's migration 0004_webhooks.sql (verifier/sqlite), the one
// schema source.
//
// SQLite has no SELECT ... FOR UPDATE SKIP LOCKED; it needs none: a claim
// is one UPDATE ... RETURNING statement, atomic under SQLite's single
// writer, so two workers (or processes) never claim the same delivery.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier/webhook"
)

// Queue is the SQLite webhook.Queue.
type Queue struct {
	db *sql.DB
}

var _ webhook.Queue = (*Queue)(nil)

// New returns a queue on db: the store's writer handle (one connection,
// _txlock=immediate), so Record's transaction never fails on a lock upgrade.
func New(db *sql.DB) *Queue { return &Queue{db: db} }

// Enqueue adds d, due at now, inside the caller's transaction: the one that
// moves the verification to completed or manual_review, so the delivery
// exists if and only if the state change committed.
func Enqueue(ctx context.Context, tx *sql.Tx, d webhook.Delivery, now time.Time) error {
	if err := webhook.CheckNew(d); err != nil {
		return fmt.Errorf("enqueue webhook: %w", err)
	}
	headers, err := json.Marshal(d.Headers)
	if err != nil {
		return fmt.Errorf("enqueue webhook: %w", err)
	}
	if d.Headers == nil {
		headers = []byte("{}")
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO webhook_deliveries
		(id, account_id, verification_id, url, headers, payload, state, attempts, next_attempt_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
		d.ID, d.AccountID, d.VerificationID, d.URL, string(headers), d.Payload, micros(now), micros(now))
	if err != nil {
		return fmt.Errorf("enqueue webhook: %w", err)
	}
	return nil
}

// Forget deletes a verification's deliveries and their log inside the
// caller's transaction (the one deleting the verification): deleted
// verifications send no webhook, not even a pending retry. An attempt in
// flight then finds its lease gone and records nothing.
func Forget(ctx context.Context, tx *sql.Tx, verificationID string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_attempts WHERE delivery_id IN
		(SELECT id FROM webhook_deliveries WHERE verification_id = ?)`, verificationID); err != nil {
		return fmt.Errorf("forget webhooks of %s: %w", verificationID, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE verification_id = ?`, verificationID); err != nil {
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
	rows, err := q.db.QueryContext(ctx, `UPDATE webhook_deliveries SET lease_token = ?1, lease_until = ?2
		WHERE id IN (SELECT id FROM webhook_deliveries
			WHERE state = 'pending' AND next_attempt_at <= ?3 AND (lease_until IS NULL OR lease_until <= ?3)
			ORDER BY next_attempt_at LIMIT ?4)
		RETURNING `+deliveryColumns, token, micros(now.Add(lease)), micros(now), limit)
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
	var next, finished any
	if out.State == webhook.StatePending {
		next = micros(out.NextAttemptAt)
	} else {
		finished = micros(res.StartedAt)
	}
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries
			SET state = ?, attempts = ?, next_attempt_at = ?, finished_at = ?, lease_token = NULL, lease_until = NULL
			WHERE id = ? AND lease_token = ?`, out.State, d.Attempt, next, finished, d.ID, d.Lease)
		if err != nil {
			return err
		}
		if n, err := r.RowsAffected(); err != nil || n == 0 {
			return errors.Join(webhook.ErrLeaseLost, err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO webhook_attempts
			(delivery_id, attempt, started_at, status_code, error, duration_us, snippet) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			d.ID, d.Attempt, micros(res.StartedAt), res.StatusCode, res.ErrorText(), res.Duration.Microseconds(), res.Snippet)
		return err
	})
	if err != nil {
		return fmt.Errorf("record webhook attempt %s#%d: %w", d.ID, d.Attempt, err)
	}
	return nil
}

// History implements webhook.Queue.
func (q *Queue) History(ctx context.Context, verificationID string) ([]webhook.DeliveryLog, error) {
	rows, err := q.db.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE verification_id = ? ORDER BY created_at DESC, rowid DESC`, verificationID)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	ds, err := scanDeliveries(rows)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	rows, err = q.db.QueryContext(ctx, `SELECT a.delivery_id, a.attempt, a.started_at, a.status_code, a.error, a.duration_us, a.snippet
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.verification_id = ? ORDER BY a.attempt`, verificationID)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	defer rows.Close()
	byID := make(map[string][]webhook.AttemptRecord)
	for rows.Next() {
		var a webhook.AttemptRecord
		var started, dur int64
		if err := rows.Scan(&a.DeliveryID, &a.Attempt, &started, &a.StatusCode, &a.Error, &dur, &a.Snippet); err != nil {
			return nil, fmt.Errorf("webhook history: %w", err)
		}
		a.StartedAt, a.Duration = fromMicros(started), time.Duration(dur)*time.Microsecond
		byID[a.DeliveryID] = append(byID[a.DeliveryID], a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	out := make([]webhook.DeliveryLog, len(ds))
	for i, d := range ds {
		out[i] = webhook.DeliveryLog{Delivery: d, Attempts: byID[d.ID]}
	}
	return out, nil
}

// Retry implements webhook.Queue.
func (q *Queue) Retry(ctx context.Context, verificationID, newID string, now time.Time) (webhook.Delivery, error) {
	var d webhook.Delivery
	err := q.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
			WHERE verification_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`, verificationID)
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
		d.State, d.Attempt, d.NextAttemptAt, d.CreatedAt = webhook.StatePending, 0, now.UTC().Truncate(time.Microsecond), now.UTC().Truncate(time.Microsecond)
		return nil
	})
	if err != nil {
		return webhook.Delivery{}, fmt.Errorf("retry webhook for %s: %w", verificationID, err)
	}
	return d, nil
}

// Purge implements webhook.Queue.
func (q *Queue) Purge(ctx context.Context, before time.Time, limit int) (int, error) {
	r, err := q.db.ExecContext(ctx, `UPDATE webhook_deliveries SET payload = x'', headers = '{}'
		WHERE id IN (SELECT id FROM webhook_deliveries
			WHERE state = 'delivered' AND length(payload) > 0 AND finished_at < ? LIMIT ?)`, micros(before), limit)
	if err != nil {
		return 0, fmt.Errorf("purge webhook payloads: %w", err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("purge webhook payloads: %w", err)
	}
	return int(n), nil
}

func (q *Queue) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := q.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// scanDeliveries reads deliveryColumns rows and closes them. Attempt is the
// number of attempts recorded so far.
func scanDeliveries(rows *sql.Rows) ([]webhook.Delivery, error) {
	defer rows.Close()
	var ds []webhook.Delivery
	for rows.Next() {
		var (
			d       webhook.Delivery
			headers string
			next    sql.NullInt64
			created int64
		)
		if err := rows.Scan(&d.ID, &d.AccountID, &d.VerificationID, &d.URL, &headers, &d.Payload,
			&d.State, &d.Attempt, &next, &created); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(headers), &d.Headers); err != nil {
			return nil, fmt.Errorf("headers of %s: %w", d.ID, err)
		}
		if next.Valid {
			d.NextAttemptAt = fromMicros(next.Int64)
		}
		d.CreatedAt = fromMicros(created)
		ds = append(ds, d)
	}
	return ds, rows.Err()
}

func micros(t time.Time) int64 { return t.UnixMicro() }

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }
