package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storage/jsoncol"
	"github.com/idgate/idgate/verifier/storage/listq"
	"github.com/idgate/idgate/verifier/webhook"
	whpostgres "github.com/idgate/idgate/verifier/webhook/postgres"
)

const verificationCols = `id, account_id, token_hash, status, type, options, external_id, webhook_url, webhook_headers,
	message, lifetime_days, expires_at, started_at, completed_at, result, pii_purged_at, template_id, created_at, updated_at`

// slotHolding is verifier.Status.HoldsSlot in SQL; it must match the
// partial index verifications_quota for the count to use it.
const slotHolding = `status IN ('pending', 'started', 'completed', 'manual_review')`

// CreateVerification serialises creates per account by locking the account
// row (FOR NO KEY UPDATE, which leaves foreign-key checks of other writers
// alone); the insert that follows is a new statement with a new snapshot, so
// its slot count sees every earlier create. An unlimited allowance needs no
// lock and is one statement, the cost of a plain insert.
func (s *Store) CreateVerification(ctx context.Context, v verifier.Verification, a verifier.Allowance) error {
	if v.Status != verifier.StatusPending {
		return fmt.Errorf("create verification: %w: must start pending, not %q", verifier.ErrInvalidTransition, v.Status)
	}
	if err := jsoncol.ValidVerification(v); err != nil {
		return fmt.Errorf("create verification: %w", err)
	}
	args := []any{v.ID, v.AccountID, v.TokenHash, string(v.Status), string(v.Type), jsoncol.Raw(v.Options),
		v.ExternalID, v.WebhookURL, jsoncol.StringMap(v.WebhookHeaders), v.Message, v.LifetimeDays,
		ts(v.ExpiresAt), nullTime(v.StartedAt), nullTime(v.CompletedAt), jsoncol.Raw(v.Result),
		nullTime(v.PIIPurgedAt), nullString(v.TemplateID), ts(v.CreatedAt), ts(v.UpdatedAt), a.Limit, ts(a.Since)}
	var err error
	switch {
	case a.Limit < 0 && v.TemplateID == "":
		_, err = s.pool.Exec(ctx, insertPlainSQL, args[:insertValueCount]...)
		err = mapErr(err)
	case a.Limit < 0:
		err = insertVerification(ctx, s.pool, v, a, args)
	default:
		err = s.inTx(ctx, func(tx pgx.Tx) error {
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, v.AccountID).Scan(&one); err != nil {
				return fmt.Errorf("account %s: %w", v.AccountID, mapErr(err))
			}
			return insertVerification(ctx, tx, v, a, args)
		})
	}
	if err != nil {
		return fmt.Errorf("create verification: %w", err)
	}
	return nil
}

// querier is what a pool and a transaction share.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// insertValues are the row's values, the first insertValueCount arguments
// of CreateVerification's statements.
const (
	insertValues = `$1::uuid, $2::uuid, $3::bytea, $4::text, $5::text, $6::json, $7::text, $8::text, $9::jsonb, $10::text,
		$11::integer, $12::timestamptz, $13::timestamptz, $14::timestamptz, $15::json, $16::timestamptz, $17::uuid,
		$18::timestamptz, $19::timestamptz`
	insertValueCount = 19
)

// insertPlainSQL is the insert with nothing to check (unlimited, no
// template). PostgreSQL re-plans insertVerificationSQL on every execution
// (its custom plans, which fold the conditions away, always look cheaper
// than the generic one), which cost the lifecycle benchmark's creates
// about as much database CPU as the insert itself; this statement is
// planned once per connection.
const insertPlainSQL = `INSERT INTO verifications (` + verificationCols + `) VALUES (` + insertValues + `)`

// insertVerificationSQL inserts only if the template (if any) is the
// account's and, for a limit of 0 or more, a slot is free.
const insertVerificationSQL = `INSERT INTO verifications (` + verificationCols + `)
	SELECT ` + insertValues + `
	WHERE ($17::uuid IS NULL OR EXISTS (SELECT 1 FROM templates WHERE id = $17::uuid AND account_id = $2::uuid))
	AND ($20::bigint < 0 OR (SELECT count(*) FROM verifications
		WHERE account_id = $2::uuid AND type = $5::text AND created_at >= $21::timestamptz AND ` + slotHolding + `) < $20::bigint)`

// insertVerification runs insertVerificationSQL and, when it inserts
// nothing, says why: a missing template or no slot left.
func insertVerification(ctx context.Context, q querier, v verifier.Verification, a verifier.Allowance, args []any) error {
	tag, err := q.Exec(ctx, insertVerificationSQL, args...)
	if err != nil {
		return mapErr(err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	if v.TemplateID != "" {
		var one int
		err := q.QueryRow(ctx, `SELECT 1 FROM templates WHERE id = $1 AND account_id = $2`, v.TemplateID, v.AccountID).Scan(&one)
		if err != nil {
			return fmt.Errorf("template %s: %w", v.TemplateID, mapErr(err))
		}
	}
	return &verifier.QuotaError{Type: v.Type, Limit: a.Limit}
}

func (s *Store) GetVerification(ctx context.Context, accountID, id string) (verifier.Verification, error) {
	v, err := scanVerification(s.pool.QueryRow(ctx, `SELECT `+verificationReadCols+` FROM verifications
		WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID))
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("get verification %s: %w", id, err)
	}
	return v, nil
}

func (s *Store) GetVerificationByTokenHash(ctx context.Context, hash []byte) (verifier.Verification, error) {
	v, err := scanVerification(s.pool.QueryRow(ctx, `SELECT `+verificationReadCols+` FROM verifications
		WHERE token_hash = $1 AND deleted_at IS NULL`, hash))
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("get verification by token: %w", err)
	}
	return v, nil
}

func (s *Store) ListVerifications(ctx context.Context, accountID string, f verifier.VerificationFilter) (verifier.VerificationPage, error) {
	q, err := listq.Build(accountID, f, func(t time.Time) any { return ts(t) })
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT %s FROM verifications WHERE %s ORDER BY %s LIMIT %d`,
		verificationReadCols, q.Where, listq.OrderBy, q.Limit+1), q.Args...)
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", mapErr(err))
	}
	vs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (verifier.Verification, error) { return scanVerification(r) })
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", mapErr(err))
	}
	return listq.Page(vs, q.Limit), nil
}

func (s *Store) UpdateVerification(ctx context.Context, accountID, id string, fn func(*verifier.Verification) error) (verifier.Verification, error) {
	var out verifier.Verification
	var fnErr error
	var enqueued bool
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		v, err := scanVerification(tx.QueryRow(ctx, `SELECT `+verificationReadCols+` FROM verifications
			WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, accountID))
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
		out, err = scanVerification(tx.QueryRow(ctx, `UPDATE verifications SET status = $3, options = $4,
			external_id = $5, webhook_url = $6, webhook_headers = $7, message = $8, lifetime_days = $9, expires_at = $10,
			started_at = $11, completed_at = $12, result = $13, pii_purged_at = $14, updated_at = $15
			WHERE id = $1 AND account_id = $2 RETURNING `+verificationReadCols,
			id, accountID, string(v.Status), jsoncol.Raw(v.Options), v.ExternalID, v.WebhookURL,
			jsoncol.StringMap(v.WebhookHeaders), v.Message, v.LifetimeDays, ts(v.ExpiresAt),
			nullTime(v.StartedAt), nullTime(v.CompletedAt), jsoncol.Raw(v.Result), nullTime(v.PIIPurgedAt),
			ts(v.UpdatedAt)))
		if err != nil {
			return err
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

// DeleteVerification cancels an unfinished verification (releasing its
// slot), drops what it holds of the account holder's and end user's data,
// and forgets its webhook deliveries in the same transaction.
func (s *Store) DeleteVerification(ctx context.Context, accountID, id string, now time.Time) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE verifications SET
			status = CASE WHEN status IN ('pending', 'started') THEN 'canceled' ELSE status END,
			result = NULL, message = '', webhook_url = '', webhook_headers = '{}', deleted_at = $3, updated_at = $3
			WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`, id, accountID, ts(now))
		if err != nil {
			return mapErr(err)
		}
		if tag.RowsAffected() == 0 {
			return verifier.ErrNotFound
		}
		// Deleted verifications send nothing, not even a pending retry.
		return whpostgres.Forget(ctx, tx, id)
	})
	if err != nil {
		return fmt.Errorf("delete verification %s: %w", id, err)
	}
	return nil
}

// ExpireDue locks due rows with SKIP LOCKED, so sweepers on several
// instances split the work instead of waiting on each other, and a row an
// updater holds is left for the next sweep.
func (s *Store) ExpireDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if limit < 1 {
		return nil, fmt.Errorf("expire due: limit %d: %w", limit, verifier.ErrInvalid)
	}
	rows, err := s.pool.Query(ctx, `UPDATE verifications SET status = 'expired', updated_at = $1
		WHERE id IN (SELECT id FROM verifications WHERE status IN ('pending', 'started') AND expires_at <= $1
			ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
		AND status IN ('pending', 'started')
		RETURNING id::text`, ts(now), limit)
	if err != nil {
		return nil, fmt.Errorf("expire due: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("expire due: %w", err)
	}
	return ids, nil
}

func (s *Store) QuotaUsage(ctx context.Context, accountID string, since time.Time) (map[verifier.Type]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT type, count(*) FROM verifications
		WHERE account_id = $1 AND created_at >= $2 AND `+slotHolding+` GROUP BY type`, accountID, ts(since))
	if err != nil {
		return nil, fmt.Errorf("quota usage: %w", mapErr(err))
	}
	usage := make(map[verifier.Type]int, len(verifier.Types))
	for _, t := range verifier.Types {
		usage[t] = 0
	}
	var typ string
	var n int
	_, err = pgx.ForEachRow(rows, []any{&typ, &n}, func() error {
		usage[verifier.Type(typ)] = n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("quota usage: %w", mapErr(err))
	}
	return usage, nil
}

// scanVerification reads a row of verificationReadCols.
func scanVerification(row pgx.Row) (verifier.Verification, error) {
	var v verifier.Verification
	var status, typ string
	var headers []byte
	var templateID *string
	var started, completed, purged *time.Time
	// json columns scan as *[]byte: the stored bytes copied as they are
	// (NULL: nil), where json.RawMessage would go through json.Unmarshal and
	// re-validate JSON checked on the way in (a GET's largest scan cost).
	err := row.Scan(&v.ID, &v.AccountID, &v.TokenHash, &status, &typ, (*[]byte)(&v.Options), &v.ExternalID, &v.WebhookURL, &headers,
		&v.Message, &v.LifetimeDays, &v.ExpiresAt, &started, &completed, (*[]byte)(&v.Result), &purged, &templateID, &v.CreatedAt, &v.UpdatedAt,
		&v.WebhookStatus)
	if err != nil {
		return verifier.Verification{}, mapErr(err)
	}
	v.Status, v.Type = verifier.Status(status), verifier.Type(typ)
	if v.WebhookHeaders, err = jsoncol.ParseStringMap(headers); err != nil {
		return verifier.Verification{}, err
	}
	v.ExpiresAt, v.CreatedAt, v.UpdatedAt = ts(v.ExpiresAt), ts(v.CreatedAt), ts(v.UpdatedAt)
	v.StartedAt, v.CompletedAt, v.PIIPurgedAt = fromNull(started), fromNull(completed), fromNull(purged)
	if templateID != nil {
		v.TemplateID = *templateID
	}
	return v, nil
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ts(t)
}

func fromNull(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return ts(*t)
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
