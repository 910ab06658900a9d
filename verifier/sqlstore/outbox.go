package sqlstore

// The webhook delivery outbox (tables webhook_deliveries and
// webhook_attempts, migration 0004) lives beside the verifications it
// delivers: UpdateVerification enqueues in its own transaction, so a
// delivery exists if and only if its state change committed, and
// DeleteVerification forgets them in its. DB implements webhook.Queue for
// the worker.
//
// Claims are one UPDATE whose subquery takes due rows FOR UPDATE SKIP
// LOCKED on PostgreSQL, so workers on many instances take disjoint
// deliveries without waiting on each other; on SQLite the statement is
// atomic under the single writer. The lease the claim sets keeps a delivery
// to one attempt at a time after the claiming transaction commits.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
)

const deliveryCols = `id, account_id, verification_id, url, headers, payload, state, attempts, next_attempt_at, created_at`

var (
	enqueueSQL = q(`INSERT INTO webhook_deliveries
		(id, account_id, verification_id, url, headers, payload, state, attempts, next_attempt_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $7)`)
	// forgetSQL: the attempt log goes with its deliveries (ON DELETE CASCADE).
	forgetSQL = q(`DELETE FROM webhook_deliveries WHERE verification_id = $1`)
	claimSQL  = q(`UPDATE webhook_deliveries SET lease_token = $1, lease_until = $2
		WHERE id IN (SELECT id FROM webhook_deliveries
			WHERE state = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until <= $3)
			ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED)
		RETURNING ` + deliveryCols)
	recordOutcomeSQL = q(`UPDATE webhook_deliveries
		SET state = $1, attempts = $2, next_attempt_at = $3, finished_at = $4, lease_token = NULL, lease_until = NULL
		WHERE id = $5 AND lease_token = $6`)
	recordAttemptSQL = q(`INSERT INTO webhook_attempts
		(delivery_id, attempt, started_at, status_code, error, duration_us, snippet) VALUES ($1, $2, $3, $4, $5, $6, $7)`)
	deliveriesSQL = q(`SELECT ` + deliveryCols + ` FROM webhook_deliveries
		WHERE verification_id = $1 ORDER BY created_at DESC, seq DESC`)
	attemptsSQL = q(`SELECT a.delivery_id, a.attempt, a.started_at, a.status_code, a.error, a.duration_us, a.snippet
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.verification_id = $1 ORDER BY a.attempt`)
	latestDeliverySQL = q(`SELECT ` + deliveryCols + ` FROM webhook_deliveries
		WHERE verification_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`)
	// purgeDeliveredSQL, purgeSnippetsSQL and unsentSQL serve a
	// verification's purge (purgeDeliveries); purgeSQL is the outbox's own
	// cleanup.
	purgeDeliveredSQL = q(`UPDATE webhook_deliveries SET payload = $2, headers = '{}'
		WHERE verification_id = $1 AND state = 'delivered' AND octet_length(payload) > 0`)
	purgeSnippetsSQL = q(`UPDATE webhook_attempts SET snippet = ''
		WHERE snippet <> '' AND delivery_id IN (SELECT id FROM webhook_deliveries WHERE verification_id = $1)`)
	unsentSQL = q(`SELECT id, payload FROM webhook_deliveries
		WHERE verification_id = $1 AND state <> 'delivered' AND octet_length(payload) > 0 FOR UPDATE`)
	setPayloadSQL = q(`UPDATE webhook_deliveries SET payload = $2 WHERE id = $1`)
	purgeSQL      = q(`UPDATE webhook_deliveries SET payload = $3, headers = '{}'
		WHERE id IN (SELECT id FROM webhook_deliveries
			WHERE state = 'delivered' AND octet_length(payload) > 0 AND finished_at < $1 LIMIT $2)`)
)

// enqueue adds d, due at now, inside tx: the transaction that moves the
// verification to completed or manual_review.
func (db *DB) enqueue(ctx context.Context, tx *sql.Tx, d webhook.Delivery, now time.Time) error {
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
	if _, err := tx.ExecContext(ctx, db.sql(enqueueSQL), d.ID, d.AccountID, d.VerificationID, d.URL, string(headers),
		d.Payload, ts(now)); err != nil {
		return fmt.Errorf("enqueue webhook: %w", err)
	}
	return nil
}

// forget deletes a verification's deliveries and their log inside tx (the
// one deleting the verification): deleted verifications send no webhook,
// not even a pending retry. An attempt in flight then finds its lease gone
// and records nothing.
func (db *DB) forget(ctx context.Context, tx *sql.Tx, verificationID string) error {
	if _, err := tx.ExecContext(ctx, db.sql(forgetSQL), verificationID); err != nil {
		return fmt.Errorf("forget webhooks of %s: %w", verificationID, err)
	}
	return nil
}

// purgeDeliveries removes a verification's personal data from its
// deliveries inside tx (the one setting pii_purged_at). Delivered ones lose
// payload and headers at once, as the outbox's cleanup would later. Those
// not delivered (pending, between retries, or failed and open to a manual
// retry) keep their headers and get the purged result in place of the
// payload, so the customer still receives the outcome, without personal
// data; one without any is left byte for byte. Every attempt so far loses
// its response snippet: a receiver may echo the payload back. An attempt
// already in flight when the purge commits sends the bytes it read.
func (db *DB) purgeDeliveries(ctx context.Context, tx *sql.Tx, verificationID string) error {
	if _, err := tx.ExecContext(ctx, db.sql(purgeDeliveredSQL), verificationID, []byte{}); err != nil {
		return fmt.Errorf("purge webhook payloads of %s: %w", verificationID, err)
	}
	if _, err := tx.ExecContext(ctx, db.sql(purgeSnippetsSQL), verificationID); err != nil {
		return fmt.Errorf("purge webhook response snippets of %s: %w", verificationID, err)
	}
	rows, err := tx.QueryContext(ctx, db.sql(unsentSQL), verificationID)
	if err != nil {
		return fmt.Errorf("purge webhook payloads of %s: %w", verificationID, err)
	}
	type unsent struct {
		id      string
		payload []byte
	}
	list, err := collect(rows, func(r scanner) (unsent, error) {
		var u unsent
		return u, r.Scan(&u.id, &u.payload)
	})
	if err != nil {
		return fmt.Errorf("purge webhook payloads of %s: %w", verificationID, err)
	}
	for _, u := range list {
		purged, changed, err := verifier.PurgedPayload(u.payload)
		if err != nil {
			return fmt.Errorf("purge webhook payload %s: %w", u.id, err)
		}
		if !changed {
			continue
		}
		if _, err := tx.ExecContext(ctx, db.sql(setPayloadSQL), u.id, purged); err != nil {
			return fmt.Errorf("purge webhook payload %s: %w", u.id, err)
		}
	}
	return nil
}

// Claim implements webhook.Queue.
func (db *DB) Claim(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]webhook.Delivery, error) {
	token, err := webhook.NewLease()
	if err != nil {
		return nil, fmt.Errorf("claim webhooks: %w", err)
	}
	rows, err := db.w.QueryContext(ctx, db.sql(claimSQL), token, ts(now.Add(lease)), ts(now), limit)
	if err != nil {
		return nil, fmt.Errorf("claim webhooks: %w", err)
	}
	ds, err := collect(rows, scanDelivery)
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
func (db *DB) Record(ctx context.Context, d webhook.Delivery, res webhook.AttemptResult, out webhook.Outcome) error {
	var next, finished any
	if out.State == webhook.StatePending {
		next = ts(out.NextAttemptAt)
	} else {
		finished = ts(res.StartedAt)
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		n, err := rowsAffected(tx.ExecContext(ctx, db.sql(recordOutcomeSQL), out.State, d.Attempt, next, finished, d.ID, d.Lease))
		if err != nil {
			return err
		}
		if n == 0 {
			return webhook.ErrLeaseLost
		}
		_, err = tx.ExecContext(ctx, db.sql(recordAttemptSQL), d.ID, d.Attempt, ts(res.StartedAt), res.StatusCode,
			res.ErrorText(), res.Duration.Microseconds(), res.Snippet)
		return err
	})
	if err != nil {
		return fmt.Errorf("record webhook attempt %s#%d: %w", d.ID, d.Attempt, err)
	}
	return nil
}

// History implements webhook.Queue.
func (db *DB) History(ctx context.Context, verificationID string) ([]webhook.DeliveryLog, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(deliveriesSQL), verificationID)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	ds, err := collect(rows, scanDelivery)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	rows, err = db.r.QueryContext(ctx, db.sql(attemptsSQL), verificationID)
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	attempts, err := collect(rows, func(r scanner) (webhook.AttemptRecord, error) {
		var a webhook.AttemptRecord
		var dur int64
		err := r.Scan(&a.DeliveryID, scanInt{&a.Attempt}, scanTime{&a.StartedAt}, scanInt{&a.StatusCode}, &a.Error, &dur, &a.Snippet)
		a.Duration = time.Duration(dur) * time.Microsecond
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("webhook history: %w", err)
	}
	byID := make(map[string][]webhook.AttemptRecord)
	for _, a := range attempts {
		byID[a.DeliveryID] = append(byID[a.DeliveryID], a)
	}
	out := make([]webhook.DeliveryLog, len(ds))
	for i, d := range ds {
		out[i] = webhook.DeliveryLog{Delivery: d, Attempts: byID[d.ID]}
	}
	return out, nil
}

// Retry implements webhook.Queue. Concurrent retries of one verification run
// one after the other (PostgreSQL: an advisory lock on it; SQLite: the
// single writer), so two clicks start one cycle.
func (db *DB) Retry(ctx context.Context, verificationID, newID string, now time.Time) (webhook.Delivery, error) {
	var d webhook.Delivery
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if db.d.lockRetry != "" {
			if _, err := tx.ExecContext(ctx, db.d.lockRetry, verificationID); err != nil {
				return err
			}
		}
		latest, err := scanDelivery(tx.QueryRowContext(ctx, db.sql(latestDeliverySQL), verificationID))
		if errors.Is(err, sql.ErrNoRows) || err == nil && latest.State != webhook.StateFailed {
			return webhook.ErrNotFailed
		}
		if err != nil {
			return err
		}
		d = latest
		d.ID = newID
		if err := db.enqueue(ctx, tx, d, now); err != nil {
			return err
		}
		d.State, d.Attempt, d.NextAttemptAt, d.CreatedAt = webhook.StatePending, 0, ts(now), ts(now)
		return nil
	})
	if err != nil {
		return webhook.Delivery{}, fmt.Errorf("retry webhook for %s: %w", verificationID, err)
	}
	return d, nil
}

// Purge implements webhook.Queue.
func (db *DB) Purge(ctx context.Context, before time.Time, limit int) (int, error) {
	n, err := rowsAffected(db.w.ExecContext(ctx, db.sql(purgeSQL), ts(before), limit, []byte{}))
	if err != nil {
		return 0, fmt.Errorf("purge webhook payloads: %w", err)
	}
	return int(n), nil
}

// scanDelivery reads a row of deliveryCols. Attempt is the number of
// attempts recorded so far.
func scanDelivery(row scanner) (webhook.Delivery, error) {
	var d webhook.Delivery
	var headers []byte
	if err := row.Scan(&d.ID, &d.AccountID, &d.VerificationID, &d.URL, &headers, &d.Payload,
		&d.State, scanInt{&d.Attempt}, scanTime{&d.NextAttemptAt}, scanTime{&d.CreatedAt}); err != nil {
		return webhook.Delivery{}, err
	}
	if err := json.Unmarshal(headers, &d.Headers); err != nil {
		return webhook.Delivery{}, fmt.Errorf("headers of %s: %w", d.ID, err)
	}
	return d, nil
}
