package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
)

const verificationCols = `id, account_id, token_hash, status, type, options, external_id, webhook_url, webhook_headers,
	message, lifetime_days, expires_at, started_at, completed_at, result, pii_purged_at, template_id, created_at, updated_at`

// verificationReadCols is what scanVerification reads: the stored columns
// and verifier.Verification.WebhookStatus, the state of the latest delivery
// (” when none), derived on read rather than copied into verifications so
// it can never disagree with the outbox (one index probe per row). It costs
// a GET about 13 µs of CPU, 10 of them PostgreSQL's (bench/lifecycle,
// 2026-11-28: store.GetVerification 65-68 µs per call with it, 55-56 with
// an empty string in its place), nearly all of it setting up the
// subplan's scan when the statement starts: a CASE that ran it only for
// statuses that can have a delivery (completed, manual_review) saved
// nothing measurable.
const verificationReadCols = verificationCols + `, test, coalesce((SELECT d.state FROM webhook_deliveries d
	WHERE d.verification_id = verifications.id::text ORDER BY d.created_at DESC, d.seq DESC LIMIT 1), '')`

// slotHolding is verifier.Status.HoldsSlot in SQL, and liveSlotHolding
// the rows that hold a slot: test verifications never count (docs/test-mode.md).
// liveSlotHolding must match the partial indexes verifications_quota and
// verifications_uncounted for the statements to use them.
const (
	slotHolding     = `status IN ('pending', 'started', 'completed', 'manual_review')`
	liveSlotHolding = `NOT test AND ` + slotHolding
)

// insertValues are the row's values, the first insertValueCount arguments
// of CreateVerification's statements. PostgreSQL needs the casts where
// values are selected rather than inserted directly.
const (
	insertValues = `$1::uuid, $2::uuid, $3::bytea, $4::text, $5::text, $6::json, $7::text, $8::text, $9::jsonb, $10::text,
		$11::integer, $12::timestamptz, $13::timestamptz, $14::timestamptz, $15::json, $16::timestamptz, $17::uuid,
		$18::timestamptz, $19::timestamptz`
	insertValueCount = 19
)

// The conditions of a create's insert (on $n of insertValues, $20 the
// counted period).
//
// uncountedHolders is true when slot holders of the period are left for
// claimAll to adopt. It is not written EXISTS (...): PostgreSQL plans an
// EXISTS for its first row, and where the statistics count many uncounted
// rows (an account with a long unlimited past, whose completed rows stay
// uncounted, in a table with pages not yet all-visible) it took a
// sequential scan for that first row; in the current period there is
// none, so every limited create read the whole table (47 ms at 120,000
// rows). The first row in the index's order, LIMIT 1, is only cheap
// through verifications_uncounted, whatever the estimate
// (TestUncountedHoldersProbe).
const (
	templateIsAccounts = `($17::uuid IS NULL OR EXISTS (SELECT 1 FROM templates WHERE id = $17::uuid AND account_id = $2::uuid))`
	uncountedHolders   = `(SELECT 1 FROM verifications WHERE account_id = $2::uuid AND type = $5::text
		AND created_at >= $20::timestamptz AND quota_period IS NULL AND ` + liveSlotHolding + `
		ORDER BY created_at LIMIT 1) IS NOT NULL`
)

var (
	// insertPlainSQL is the insert with nothing to check (unlimited, no
	// template). PostgreSQL re-plans insertVerificationSQL on every
	// execution (its custom plans, which fold the conditions away, always
	// look cheaper than the generic one), which cost the lifecycle
	// benchmark's creates about as much database CPU as the insert itself;
	// this statement is planned once per connection.
	insertPlainSQL = q(`INSERT INTO verifications (` + verificationCols + `) VALUES (` + insertValues + `)`)
	// insertVerificationSQL inserts only if the template (if any) is the
	// account's and, when $20 (the counted period) is given and $21 is true,
	// no slot holder of the period is left for claimAll to adopt (quota.go).
	insertVerificationSQL = q(`INSERT INTO verifications (` + verificationCols + `, quota_period)
	SELECT ` + insertValues + `, $20::timestamptz
	WHERE ` + templateIsAccounts + ` AND NOT ($21::boolean AND ` + uncountedHolders + `)`)
	// insertTestSQL inserts a test verification: never counted, so only the
	// template (if any) is checked.
	insertTestSQL = q(`INSERT INTO verifications (` + verificationCols + `, test)
	SELECT ` + insertValues + `, true WHERE ` + templateIsAccounts)
	templateOfAccountSQL = q(`SELECT 1 FROM templates WHERE id = $1 AND account_id = $2`)

	// getVerificationSQL finds the row by its primary key alone and says in
	// a last column whether the caller may see it (its account's, not
	// deleted). With the owner and deleted_at in the WHERE, PostgreSQL may
	// take verifications_list (account_id, test, created_at, id; partial on
	// deleted_at IS NULL) instead of the primary key whenever its
	// statistics are cold (a table filled since its last ANALYZE, as in a
	// fresh deployment or bench/lifecycle), and then walks every index
	// entry of the account for one row: 128 buffer hits per GET instead of
	// 5 at 8,400 rows, a third of a GET's CPU (measured on 8,400 rows). Here no
	// other index can serve the WHERE.
	getVerificationSQL = q(`SELECT ` + verificationReadCols + `, account_id = $2 AND deleted_at IS NULL
		FROM verifications WHERE id = $1`)
	getVerificationByTokenSQL = q(`SELECT ` + verificationReadCols + ` FROM verifications
		WHERE token_hash = $1 AND deleted_at IS NULL`)
	listVerificationsSQL = q(`SELECT ` + verificationReadCols + ` FROM verifications WHERE `)
	// lockVerificationSQL and lockStatusSQL lock the account's row and
	// say in a last column whether it is live (not deleted): deleted_at in
	// the WHERE would let the planner take verifications_list on cold
	// statistics, as getVerificationSQL says; without it only the primary
	// key serves the WHERE.
	lockVerificationSQL = q(`SELECT ` + verificationReadCols + `, deleted_at IS NULL FROM verifications
		WHERE id = $1 AND account_id = $2 FOR UPDATE`)
	updateVerificationSQL = q(`UPDATE verifications SET status = $3, options = $4,
		external_id = $5, webhook_url = $6, webhook_headers = $7, message = $8, lifetime_days = $9, expires_at = $10,
		started_at = $11, completed_at = $12, result = $13, pii_purged_at = $14, updated_at = $15
		WHERE id = $1 AND account_id = $2 RETURNING ` + verificationReadCols)
	lockStatusSQL = q(`SELECT status, deleted_at IS NULL FROM verifications WHERE id = $1 AND account_id = $2 FOR UPDATE`)
	// deleteVerificationSQL cancels an unfinished verification (releasing
	// its slot) and drops what it holds of the account holder's and end
	// user's data. Its caller has locked the row and seen it live
	// (lockStatusSQL), so the WHERE names it by key alone.
	deleteVerificationSQL = q(`UPDATE verifications SET
		status = CASE WHEN status IN ('pending', 'started') THEN 'canceled' ELSE status END,
		result = NULL, message = '', webhook_url = '', webhook_headers = '{}', deleted_at = $3, updated_at = $3
		WHERE id = $1 AND account_id = $2`)
	// expireDueSQL locks due rows with SKIP LOCKED (PostgreSQL), so
	// sweepers on several instances split the work instead of waiting on
	// each other, and a row an updater holds is left for the next sweep.
	expireDueSQL = q(`UPDATE verifications SET status = 'expired', updated_at = $1
		WHERE id IN (SELECT id FROM verifications WHERE status IN ('pending', 'started') AND expires_at <= $1
			ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
		AND status IN ('pending', 'started')
		RETURNING id::text, account_id::text, type, quota_period IS NOT NULL, quota_period`)
	quotaUsageSQL = q(`SELECT type, count(*) FROM verifications
		WHERE account_id = $1 AND created_at >= $2 AND ` + liveSlotHolding + ` GROUP BY type`)
)

// CreateVerification: an unlimited allowance without a template is one plain
// insert, the cost of a raw insert; an unlimited one with a template one
// conditional insert; a limited one claims a slot (quota.go) and inserts in
// one transaction.
func (db *DB) CreateVerification(ctx context.Context, v verifier.Verification, a verifier.Allowance) error {
	if v.Status != verifier.StatusPending {
		return fmt.Errorf("create verification: %w: must start pending, not %q", verifier.ErrInvalidTransition, v.Status)
	}
	if err := validVerification(v); err != nil {
		return fmt.Errorf("create verification: %w", err)
	}
	args := []any{v.ID, v.AccountID, v.TokenHash, string(v.Status), string(v.Type), rawJSON(v.Options),
		v.ExternalID, v.WebhookURL, string(stringMap(v.WebhookHeaders)), v.Message, v.LifetimeDays,
		ts(v.ExpiresAt), nullTime(v.StartedAt), nullTime(v.CompletedAt), rawJSON(v.Result),
		nullTime(v.PIIPurgedAt), nullString(v.TemplateID), ts(v.CreatedAt), ts(v.UpdatedAt), nil, false}
	var err error
	switch {
	case v.Mode == verifier.ModeTest:
		err = db.insertVerification(ctx, db.w, db.sql(insertTestSQL), v, args[:insertValueCount])
	case a.Limit < 0 && v.TemplateID == "":
		_, err = db.w.ExecContext(ctx, db.sql(insertPlainSQL), args[:insertValueCount]...)
		err = mapErr(err)
	case a.Limit < 0:
		err = db.insertVerification(ctx, db.w, db.sql(insertVerificationSQL), v, args)
	default:
		args[insertValueCount] = ts(a.Since)
		err = db.createCounted(ctx, v, a, args)
	}
	if err != nil {
		return fmt.Errorf("create verification: %w", err)
	}
	return nil
}

// createCounted claims a slot on one stripe and inserts, refusing to while
// uncounted holders remain; without a stripe with room, or with such
// holders, it starts again in a fresh transaction (dropping whatever rows
// the first one locked) on the slow path, claimAll, and inserts after it.
func (db *DB) createCounted(ctx context.Context, v verifier.Verification, a verifier.Allowance, args []any) error {
	err := errNotInserted
	if db.d.claimAndInsert != nil {
		args = append(args[:insertValueCount+1], a.Limit, db.drawStripe())
		forms := db.d.claimAndInsert[0]
		if v.TemplateID != "" {
			forms = db.d.claimAndInsert[1]
		}
		for _, query := range forms {
			if err = db.insertVerification(ctx, db.w, query, v, args); !errors.Is(err, errNotInserted) {
				break
			}
		}
	} else {
		args[insertValueCount+1] = true
		err = db.inTx(ctx, func(tx *sql.Tx) error {
			claimed, err := db.claimSlot(ctx, tx, v.AccountID, v.Type, a)
			if err != nil {
				return err
			}
			if !claimed {
				return errNotInserted
			}
			return db.insertVerification(ctx, tx, db.sql(insertVerificationSQL), v, args)
		})
	}
	if !errors.Is(err, errNotInserted) {
		return err
	}
	args = append(args[:insertValueCount+1], false)
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.claimAll(ctx, tx, v.AccountID, v.Type, a); err != nil {
			return err
		}
		return db.insertVerification(ctx, tx, db.sql(insertVerificationSQL), v, args)
	})
}

// errNotInserted is the fast path's answer when it found no stripe with
// room, or the template exists but uncounted slot holders stopped the
// insert.
var errNotInserted = errors.New("no slot on the fast path")

// execer is what a pool and a transaction share.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// insertVerification runs insertVerificationSQL and, when it inserts
// nothing, says why: a missing template, or (errNotInserted) no slot claimed
// or uncounted holders.
func (db *DB) insertVerification(ctx context.Context, x execer, query string, v verifier.Verification, args []any) error {
	n, err := rowsAffected(x.ExecContext(ctx, query, args...))
	if err != nil {
		return mapErr(err)
	}
	if n == 1 {
		return nil
	}
	if v.TemplateID != "" {
		var one int64
		if err := x.QueryRowContext(ctx, db.sql(templateOfAccountSQL), v.TemplateID, v.AccountID).Scan(&one); err != nil {
			return fmt.Errorf("template %s: %w", v.TemplateID, mapErr(err))
		}
	}
	return errNotInserted
}

func (db *DB) GetVerification(ctx context.Context, accountID, id string) (verifier.Verification, error) {
	c := &getCall{id: id, account: accountID}
	if db.gets != nil && canonicalUUID(id) && canonicalUUID(accountID) {
		db.gets.get(ctx, c) // getbatch.go
	} else {
		db.runGets(ctx, []*getCall{c})
	}
	if c.err != nil {
		return verifier.Verification{}, fmt.Errorf("get verification %s: %w", id, c.err)
	}
	return c.v, nil
}

func (db *DB) GetVerificationByTokenHash(ctx context.Context, hash []byte) (verifier.Verification, error) {
	v, err := scanVerification(db.r.QueryRowContext(ctx, db.sql(getVerificationByTokenSQL), hash))
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("get verification by token: %w", err)
	}
	return v, nil
}

func (db *DB) ListVerifications(ctx context.Context, accountID string, f verifier.VerificationFilter) (verifier.VerificationPage, error) {
	lq, err := buildList(accountID, f)
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	rows, err := db.r.QueryContext(ctx, fmt.Sprintf(`%s%s ORDER BY %s LIMIT %d`,
		db.sql(listVerificationsSQL), lq.Where, listOrderBy, lq.Limit+1), lq.Args...)
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", mapErr(err))
	}
	vs, err := collect(rows, scanVerification)
	if err != nil {
		return verifier.VerificationPage{}, fmt.Errorf("list verifications: %w", err)
	}
	return listPage(vs, lq.Limit), nil
}

func (db *DB) UpdateVerification(ctx context.Context, accountID, id string, fn func(*verifier.Verification) error) (verifier.Verification, error) {
	var out verifier.Verification
	var fnErr error
	var enqueued bool
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var live bool
		v, err := scanVerification(scanAlso{tx.QueryRowContext(ctx, db.sql(lockVerificationSQL), id, accountID), []any{&live}})
		if err != nil {
			return err
		}
		if !live {
			return verifier.ErrNotFound
		}
		old := v
		if fnErr = fn(&v); fnErr != nil {
			return fnErr
		}
		if err := verifier.CheckUpdate(old, &v); err != nil {
			return err
		}
		if err := validVerification(v); err != nil {
			return err
		}
		if old.Status.HoldsSlot() && !v.Status.HoldsSlot() {
			if err := db.releaseSlot(ctx, tx, accountID, id); err != nil {
				return err
			}
		}
		out, err = scanVerification(tx.QueryRowContext(ctx, db.sql(updateVerificationSQL),
			id, accountID, string(v.Status), rawJSON(v.Options), v.ExternalID, v.WebhookURL,
			string(stringMap(v.WebhookHeaders)), v.Message, v.LifetimeDays, ts(v.ExpiresAt),
			nullTime(v.StartedAt), nullTime(v.CompletedAt), rawJSON(v.Result), nullTime(v.PIIPurgedAt),
			ts(v.UpdatedAt)))
		if err != nil {
			return err
		}
		// A purge takes the outbox's copies with it, in this transaction.
		if old.PIIPurgedAt.IsZero() && !out.PIIPurgedAt.IsZero() {
			if err := db.purgeDeliveries(ctx, tx, id); err != nil {
				return err
			}
		}
		// The delivery commits with the status change or not at all.
		if d, ok := verifier.DeliveryFor(old, out); ok {
			if err := db.enqueue(ctx, tx, d, out.UpdatedAt); err != nil {
				return err
			}
			enqueued, out.WebhookStatus = true, webhook.StatePending
		}
		return nil
	})
	if fnErr != nil {
		return verifier.Verification{}, fnErr
	}
	if err != nil {
		return verifier.Verification{}, fmt.Errorf("update verification %s: %w", id, err)
	}
	if enqueued {
		db.webhookEnqueued()
	}
	return out, nil
}

// DeleteVerification cancels an unfinished verification, drops its data and
// forgets its webhook deliveries in one transaction.
func (db *DB) DeleteVerification(ctx context.Context, accountID, id string, now time.Time) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var status string
		var live bool
		if err := tx.QueryRowContext(ctx, db.sql(lockStatusSQL), id, accountID).Scan(&status, &live); err != nil {
			return mapErr(err)
		}
		if !live {
			return verifier.ErrNotFound
		}
		if s := verifier.Status(status); s == verifier.StatusPending || s == verifier.StatusStarted {
			if err := db.releaseSlot(ctx, tx, accountID, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, db.sql(deleteVerificationSQL), id, accountID, ts(now)); err != nil {
			return mapErr(err)
		}
		// Deleted verifications send nothing, not even a pending retry.
		return db.forget(ctx, tx, id)
	})
	if err != nil {
		return fmt.Errorf("delete verification %s: %w", id, err)
	}
	return nil
}

func (db *DB) ExpireDue(ctx context.Context, now time.Time, limit int) ([]string, error) {
	if limit < 1 {
		return nil, fmt.Errorf("expire due: limit %d: %w", limit, verifier.ErrInvalid)
	}
	var ids []string
	// Expiring releases the slots (quota.go), with the status change: the
	// counted ones grouped by period, each period's stripes locked once, in
	// one order (key, then stripe).
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, db.sql(expireDueSQL), ts(now), limit)
		if err != nil {
			return err
		}
		released := map[slotSet]int64{}
		ids, err = collect(rows, func(r scanner) (string, error) {
			var id string
			var s slotSet
			var counted bool
			if err := r.Scan(&id, &s.accountID, &s.typ, &counted, scanTime{&s.period}); err != nil {
				return "", err
			}
			if counted {
				released[s]++
			}
			return id, nil
		})
		if err != nil {
			return err
		}
		sets := slices.SortedFunc(maps.Keys(released), func(a, b slotSet) int {
			return cmp.Or(strings.Compare(a.accountID, b.accountID), strings.Compare(a.typ, b.typ), a.period.Compare(b.period))
		})
		for _, s := range sets {
			if err := db.releaseSlots(ctx, tx, s, released[s]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("expire due: %w", err)
	}
	return ids, nil
}

func (db *DB) QuotaUsage(ctx context.Context, accountID string, since time.Time) (map[verifier.Type]int, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(quotaUsageSQL), accountID, ts(since))
	if err != nil {
		return nil, fmt.Errorf("quota usage: %w", mapErr(err))
	}
	usage := make(map[verifier.Type]int, len(verifier.Types))
	for _, t := range verifier.Types {
		usage[t] = 0
	}
	_, err = collect(rows, func(r scanner) (struct{}, error) {
		var typ string
		var n int
		if err := r.Scan(&typ, scanInt{&n}); err != nil {
			return struct{}{}, err
		}
		usage[verifier.Type(typ)] = n
		return struct{}{}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("quota usage: %w", err)
	}
	return usage, nil
}

// scanAlso scans the columns after the ones its caller names into also.
type scanAlso struct {
	row  scanner
	also []any
}

func (s scanAlso) Scan(dest ...any) error { return s.row.Scan(append(dest, s.also...)...) }

// scanVerification reads a row of verificationReadCols.
func scanVerification(row scanner) (verifier.Verification, error) {
	var v verifier.Verification
	var status, typ string
	var headers []byte
	var templateID sql.NullString
	// JSON columns scan into *[]byte: the stored bytes copied as they are
	// (NULL: nil), never re-validated (a GET's largest scan cost).
	err := row.Scan(&v.ID, &v.AccountID, &v.TokenHash, &status, &typ, (*[]byte)(&v.Options), &v.ExternalID, &v.WebhookURL, &headers,
		&v.Message, scanInt{&v.LifetimeDays}, scanTime{&v.ExpiresAt}, scanTime{&v.StartedAt}, scanTime{&v.CompletedAt},
		(*[]byte)(&v.Result), scanTime{&v.PIIPurgedAt}, &templateID, scanTime{&v.CreatedAt}, scanTime{&v.UpdatedAt},
		(*bool)(&v.Mode), &v.WebhookStatus)
	if err != nil {
		return verifier.Verification{}, mapErr(err)
	}
	v.Status, v.Type, v.TemplateID = verifier.Status(status), verifier.Type(typ), templateID.String
	if v.WebhookHeaders, err = parseStringMap(headers); err != nil {
		return verifier.Verification{}, err
	}
	return v, nil
}

// runGets reads batch, a call alone on getVerificationSQL and more on
// the dialect's getVerifications.
func (db *DB) runGets(ctx context.Context, batch []*getCall) {
	if len(batch) == 1 {
		c := batch[0]
		// visible is read with the row, before the row's JSON is parsed
		// (Valid: a row was read), so another account's row is not found
		// even if it would not parse.
		var visible sql.NullBool
		c.v, c.err = scanVerification(scanAlso{db.r.QueryRowContext(ctx, db.sql(getVerificationSQL), c.id, c.account), []any{&visible}})
		if visible.Valid && !visible.Bool {
			c.v, c.err = verifier.Verification{}, verifier.ErrNotFound
		}
		return
	}
	// Always getBatchMax IDs, NULL after the batch's, so PostgreSQL plans
	// the statement once per connection: on an array of its actual length
	// a custom plan always looks cheaper than the generic one, and planning
	// cost 70-140 µs per batch. A NULL key finds no row and reads nothing.
	ids := make([]*string, getBatchMax)
	for i, c := range batch {
		ids[i] = &c.id
	}
	for _, c := range batch {
		c.v, c.err = verifier.Verification{}, verifier.ErrNotFound
	}
	fail := func(err error) {
		for _, c := range batch {
			c.v, c.err = verifier.Verification{}, err
		}
	}
	rows, err := db.r.QueryContext(ctx, db.d.getVerifications, ids)
	if err != nil {
		fail(mapErr(err))
		return
	}
	defer rows.Close()
	for rows.Next() {
		var live bool
		v, err := scanVerification(scanAlso{rows, []any{&live}})
		if err != nil { // one row's: each call alone gets its own answer
			_ = rows.Close()
			for _, c := range batch {
				db.runGets(ctx, []*getCall{c})
			}
			return
		}
		for _, c := range batch {
			if live && strings.EqualFold(c.id, v.ID) && strings.EqualFold(c.account, v.AccountID) {
				c.v, c.err = v, nil
			}
		}
	}
	if err := rows.Err(); err != nil {
		fail(mapErr(err))
	}
}

// canonicalUUID tells whether s is a UUID in its 36-character form, the
// only one a batch takes: PostgreSQL refuses a malformed one with an
// error, which would be the whole batch's.
func canonicalUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		switch ch := s[i]; {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if ch != '-' {
				return false
			}
		case '0' <= ch && ch <= '9', 'a' <= ch && ch <= 'f', 'A' <= ch && ch <= 'F':
		default:
			return false
		}
	}
	return true
}
