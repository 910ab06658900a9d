package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storage/jsoncol"
	"github.com/idgate/idgate/verifier/storage/listq"
	"github.com/idgate/idgate/verifier/webhook"
	whsqlite "github.com/idgate/idgate/verifier/webhook/sqlite"
)

const verificationCols = `id, account_id, token_hash, status, type, options, external_id, webhook_url, webhook_headers,
	message, lifetime_days, expires_at, started_at, completed_at, result, pii_purged_at, template_id, created_at, updated_at`

// slotHolding is verifier.Status.HoldsSlot in SQL; it must match the
// partial index verifications_quota for the count to use it.
const slotHolding = `status IN ('pending', 'started', 'completed', 'manual_review')`

func (s *Store) CreateVerification(ctx context.Context, v verifier.Verification, a verifier.Allowance) error {
	if v.Status != verifier.StatusPending {
		return fmt.Errorf("create verification: %w: must start pending, not %q", verifier.ErrInvalidTransition, v.Status)
	}
	if err := jsoncol.ValidVerification(v); err != nil {
		return fmt.Errorf("create verification: %w", err)
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if v.TemplateID != "" {
			var one int
			if err := tx.QueryRowContext(ctx, `SELECT 1 FROM templates WHERE id = $1 AND account_id = $2`,
				v.TemplateID, v.AccountID).Scan(&one); err != nil {
				return fmt.Errorf("template %s: %w", v.TemplateID, notFound(err))
			}
		}
		if a.Limit >= 0 {
			var used int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM verifications
				WHERE account_id = $1 AND type = $2 AND created_at >= $3 AND `+slotHolding,
				v.AccountID, string(v.Type), toDB(a.Since)).Scan(&used); err != nil {
				return err
			}
			if used >= a.Limit {
				return &verifier.QuotaError{Type: v.Type, Limit: a.Limit}
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO verifications (`+verificationCols+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
			verificationArgs(v)...)
		return mapErr(err)
	})
	if err != nil {
		return fmt.Errorf("create verification: %w", err)
	}
	return nil
}

func verificationArgs(v verifier.Verification) []any {
	return []any{v.ID, v.AccountID, v.TokenHash, string(v.Status), string(v.Type), jsoncol.Raw(v.Options),
		v.ExternalID, v.WebhookURL, string(jsoncol.StringMap(v.WebhookHeaders)), v.Message, v.LifetimeDays,
		toDB(v.ExpiresAt), nullTime(v.StartedAt), nullTime(v.CompletedAt), jsoncol.Raw(v.Result),
		nullTime(v.PIIPurgedAt), nullString(v.TemplateID), toDB(v.CreatedAt), toDB(v.UpdatedAt)}
}

func (s *Store) GetVerification(ctx context.Context, accountID, id string) (verifier.Verification, error) {
	v, err := scanVerification(s.r.QueryRowContext(ctx, `SELECT `+verificationReadCols+` FROM verifications
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID))
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("get verification %s: %w", id, err)
	}
	return v, nil
}

func (s *Store) GetVerificationByTokenHash(ctx context.Context, hash []byte) (verifier.Verification, error) {
	v, err := scanVerification(s.r.QueryRowContext(ctx, `SELECT `+verificationReadCols+` FROM verifications
		WHERE token_hash = $1 AND deleted_at IS NULL`, hash))
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("get verification by token: %w", err)
	}
	return v, nil
}

func (s *Store) ListVerifications(ctx context.Context, accountID string, f verifier.VerificationFilter) (verifier.VerificationPage, error) {
	q, err := listq.Build(accountID, f, func(t time.Time) any { return toDB(t) })
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, fmt.Sprintf(`SELECT %s FROM verifications WHERE %s ORDER BY %s LIMIT %d`,
		verificationReadCols, q.Where, listq.OrderBy, q.Limit+1), q.Args...)
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	defer rows.Close()
	var vs []verifier.Verification
	for rows.Next() {
		v, err := scanVerification(rows)
		if err != nil {
			return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
		}
		vs = append(vs, v)
	}
	if err := rows.Err(); err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	return listq.Page(vs, q.Limit), nil
}

func (s *Store) UpdateVerification(ctx context.Context, accountID, id string, fn func(*verifier.Verification) error) (verifier.Verification, error) {
	var out verifier.Verification
	var fnErr error
	var enqueued bool
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		v, err := scanVerification(tx.QueryRowContext(ctx, `SELECT `+verificationReadCols+` FROM verifications
			WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID))
		if err != nil {
			return err
		}
		old := v
		if fnErr = fn(&v); fnErr != nil {
			return fnErr
		}
		if err := verifier.CheckUpdate(old, &v); err != nil {
			return err
		}
		if err := jsoncol.ValidVerification(v); err != nil {
			return err
		}
		out, err = scanVerification(tx.QueryRowContext(ctx, `UPDATE verifications SET status = $3, options = $4,
			external_id = $5, webhook_url = $6, webhook_headers = $7, message = $8, lifetime_days = $9, expires_at = $10,
			started_at = $11, completed_at = $12, result = $13, pii_purged_at = $14, updated_at = $15
			WHERE id = $1 AND account_id = $2 RETURNING `+verificationReadCols,
			id, accountID, string(v.Status), jsoncol.Raw(v.Options), v.ExternalID, v.WebhookURL,
			string(jsoncol.StringMap(v.WebhookHeaders)), v.Message, v.LifetimeDays, toDB(v.ExpiresAt),
			nullTime(v.StartedAt), nullTime(v.CompletedAt), jsoncol.Raw(v.Result), nullTime(v.PIIPurgedAt),
			toDB(v.UpdatedAt)))
		if err != nil {
			return mapErr(err)
		}
		// The delivery commits with the status change or not at all.
		if enqueued, err = enqueueWebhook(ctx, tx, old, out); enqueued {
			out.WebhookStatus = webhook.StatePending
		}
		return err
	})
	if fnErr != nil {
		return verifier.Verification{}, fnErr
	}
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("update verification %s: %w", id, err)
	}
	if enqueued {
		s.webhookEnqueued()
	}
	return out, nil
}

func (s *Store) DeleteVerification(ctx context.Context, accountID, id string, now time.Time) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, deleteVerificationSQL, id, accountID, toDB(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return verifier.ErrNotFound
		}
		// Deleted verifications send nothing, not even a pending retry.
		return whsqlite.Forget(ctx, tx, id)
	})
	if err != nil {
		return fmt.Errorf("delete verification %s: %w", id, err)
	}
	return nil
}

// deleteVerificationSQL cancels an unfinished verification (releasing its
// slot) and drops what it holds of the account holder's and end user's data.
const deleteVerificationSQL = `UPDATE verifications SET
	status = CASE WHEN status IN ('pending', 'started') THEN 'canceled' ELSE status END,
	result = NULL, message = '', webhook_url = '', webhook_headers = '{}', deleted_at = $3, updated_at = $3
	WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`

func (s *Store) ExpireDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if limit < 1 {
		return nil, fmt.Errorf("expire due: limit %d: %w", limit, verifier.ErrInvalid)
	}
	rows, err := s.w.QueryContext(ctx, `UPDATE verifications SET status = 'expired', updated_at = $1
		WHERE id IN (SELECT id FROM verifications WHERE status IN ('pending', 'started') AND expires_at <= $1
			ORDER BY expires_at LIMIT $2)
		RETURNING id`, toDB(now), limit)
	if err != nil {
		return nil, fmt.Errorf("expire due: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("expire due: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("expire due: %w", err)
	}
	return ids, nil
}

func (s *Store) QuotaUsage(ctx context.Context, accountID string, since time.Time) (map[verifier.Type]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT type, count(*) FROM verifications
		WHERE account_id = $1 AND created_at >= $2 AND `+slotHolding+` GROUP BY type`, accountID, toDB(since))
	if err != nil {
		return nil, fmt.Errorf("quota usage: %w", err)
	}
	defer rows.Close()
	usage := make(map[verifier.Type]int, len(verifier.Types))
	for _, t := range verifier.Types {
		usage[t] = 0
	}
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, fmt.Errorf("quota usage: %w", err)
		}
		usage[verifier.Type(t)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("quota usage: %w", err)
	}
	return usage, nil
}

type scanner interface{ Scan(dest ...any) error }

// scanVerification reads a row of verificationReadCols.
func scanVerification(row scanner) (verifier.Verification, error) {
	var v verifier.Verification
	var status, typ, headers string
	var options, result, templateID sql.NullString
	var expires, created, updated int64
	var started, completed, purged sql.NullInt64
	err := row.Scan(&v.ID, &v.AccountID, &v.TokenHash, &status, &typ, &options, &v.ExternalID, &v.WebhookURL, &headers,
		&v.Message, &v.LifetimeDays, &expires, &started, &completed, &result, &purged, &templateID, &created, &updated,
		&v.WebhookStatus)
	if err != nil {
		return verifier.Verification{}, notFound(err)
	}
	v.Status, v.Type = verifier.Status(status), verifier.Type(typ)
	if v.WebhookHeaders, err = jsoncol.ParseStringMap([]byte(headers)); err != nil {
		return verifier.Verification{}, err
	}
	v.Options, v.Result = rawOrNil(options), rawOrNil(result)
	v.ExpiresAt, v.CreatedAt, v.UpdatedAt = fromDB(expires), fromDB(created), fromDB(updated)
	v.StartedAt, v.CompletedAt, v.PIIPurgedAt = fromNull(started), fromNull(completed), fromNull(purged)
	v.TemplateID = templateID.String
	return v, nil
}

func rawOrNil(s sql.NullString) []byte {
	if !s.Valid {
		return nil
	}
	return []byte(s.String)
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return toDB(t)
}

func fromNull(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromDB(n.Int64)
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
