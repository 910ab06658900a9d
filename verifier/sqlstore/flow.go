package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

var _ flow.Store = (*DB)(nil)

var (
	// createFlowSessionSQL creates the session row empty ($4) if the
	// verification is the account's, so the first two requests of a link
	// also queue on it.
	createFlowSessionSQL = q(`INSERT INTO flow_sessions (verification_id, account_id, state, updated_at)
		SELECT $1::uuid, $2::uuid, $4::bytea, $3::timestamptz WHERE EXISTS (SELECT 1 FROM verifications WHERE id = $1 AND account_id = $2)
		ON CONFLICT (verification_id) DO NOTHING`)
	lockFlowSessionSQL   = q(`SELECT state FROM flow_sessions WHERE verification_id = $1 AND account_id = $2 FOR UPDATE`)
	updateFlowSessionSQL = q(`UPDATE flow_sessions SET state = $1, updated_at = $2 WHERE verification_id = $3`)
	getFlowSessionSQL    = q(`SELECT state FROM flow_sessions WHERE verification_id = $1 AND octet_length(state) > 0`)
	putReviewImageSQL    = q(`INSERT INTO flow_review_images (verification_id, account_id, kind, data, created_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (verification_id, kind) DO UPDATE SET data = excluded.data, created_at = excluded.created_at`)
	reviewImagesSQL       = q(`SELECT kind, data FROM flow_review_images WHERE verification_id = $1 AND account_id = $2`)
	deleteFlowSessionSQL  = q(`DELETE FROM flow_sessions WHERE verification_id = $1`)
	deleteReviewImagesSQL = q(`DELETE FROM flow_review_images WHERE verification_id = $1`)
	// purgeDueSQL uses the partial index verifications_purge_due.
	purgeDueSQL = q(`SELECT account_id::text, id::text, test FROM verifications
		WHERE status = 'completed' AND completed_at <= $1 AND pii_purged_at IS NULL AND deleted_at IS NULL
		ORDER BY completed_at LIMIT $2`)
	// abandonedFlowsSQL starts from the flow tables, which hold only live
	// sessions and the review images of verifications not yet purged.
	abandonedFlowsSQL = q(`SELECT v.id::text FROM verifications v
		WHERE (v.status IN ('expired', 'canceled') OR v.deleted_at IS NOT NULL)
		AND v.id IN (SELECT verification_id FROM flow_sessions UNION SELECT verification_id FROM flow_review_images)
		LIMIT $1`)
)

// UpdateFlowSession implements flow.Store: the row is created empty first
// and then locked, so concurrent updates of one link queue on it.
func (db *DB) UpdateFlowSession(ctx context.Context, accountID, verificationID string, now time.Time,
	fn func(sealed []byte) ([]byte, error)) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.sql(createFlowSessionSQL), verificationID, accountID, ts(now), []byte{}); err != nil {
			return mapErr(err)
		}
		var state []byte
		if err := tx.QueryRowContext(ctx, db.sql(lockFlowSessionSQL), verificationID, accountID).Scan(&state); err != nil {
			return mapErr(err)
		}
		if len(state) == 0 {
			state = nil
		}
		out, err := fn(state)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.sql(updateFlowSessionSQL), out, ts(now), verificationID)
		return err
	})
	if err != nil {
		return fmt.Errorf("update flow session: %w", err)
	}
	return nil
}

// GetFlowSession implements flow.Store.
func (db *DB) GetFlowSession(ctx context.Context, verificationID string) ([]byte, error) {
	var state []byte
	if err := db.r.QueryRowContext(ctx, db.sql(getFlowSessionSQL), verificationID).Scan(&state); err != nil {
		return nil, fmt.Errorf("get flow session: %w", mapErr(err))
	}
	return state, nil
}

// PutReviewImage implements flow.Store.
func (db *DB) PutReviewImage(ctx context.Context, accountID, verificationID string, kind flow.ReviewImage, sealed []byte, now time.Time) error {
	if _, err := db.w.ExecContext(ctx, db.sql(putReviewImageSQL), verificationID, accountID, string(kind), sealed, ts(now)); err != nil {
		return fmt.Errorf("put review image: %w", mapErr(err))
	}
	return nil
}

// ReviewImages implements flow.Store.
func (db *DB) ReviewImages(ctx context.Context, accountID, verificationID string) (map[flow.ReviewImage][]byte, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(reviewImagesSQL), verificationID, accountID)
	if err != nil {
		return nil, fmt.Errorf("review images: %w", mapErr(err))
	}
	out := map[flow.ReviewImage][]byte{}
	if _, err := collect(rows, func(r scanner) (struct{}, error) {
		var kind string
		var data []byte
		err := r.Scan(&kind, &data)
		out[flow.ReviewImage(kind)] = data
		return struct{}{}, err
	}); err != nil {
		return nil, fmt.Errorf("review images: %w", err)
	}
	return out, nil
}

// DeleteFlowData implements flow.Store.
func (db *DB) DeleteFlowData(ctx context.Context, verificationID string) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, db.sql(deleteFlowSessionSQL), verificationID); err != nil {
			return mapErr(err)
		}
		_, err := tx.ExecContext(ctx, db.sql(deleteReviewImagesSQL), verificationID)
		return mapErr(err)
	})
	if err != nil {
		return fmt.Errorf("delete flow data: %w", err)
	}
	return nil
}

// PurgeDue implements flow.Store.
func (db *DB) PurgeDue(ctx context.Context, before time.Time, limit int) ([]flow.Ref, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(purgeDueSQL), ts(before), limit)
	if err != nil {
		return nil, fmt.Errorf("purge due: %w", mapErr(err))
	}
	refs, err := collect(rows, func(r scanner) (flow.Ref, error) {
		var ref flow.Ref
		var test bool
		err := r.Scan(&ref.AccountID, &ref.ID, &test)
		ref.Mode = verifier.Mode(test)
		return ref, err
	})
	if err != nil {
		return nil, fmt.Errorf("purge due: %w", err)
	}
	return refs, nil
}

// AbandonedFlows implements flow.Store.
func (db *DB) AbandonedFlows(ctx context.Context, limit int) ([]string, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(abandonedFlowsSQL), limit)
	if err != nil {
		return nil, fmt.Errorf("abandoned flows: %w", mapErr(err))
	}
	ids, err := collect(rows, func(r scanner) (string, error) {
		var id string
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, fmt.Errorf("abandoned flows: %w", err)
	}
	return ids, nil
}
