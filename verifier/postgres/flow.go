package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/verifier/flow"
)

var _ flow.Store = (*Store)(nil)

// UpdateFlowSession implements flow.Store: the row is created empty first
// and then locked (FOR UPDATE), so the first two requests of a link also
// queue on it.
func (s *Store) UpdateFlowSession(ctx context.Context, accountID, verificationID string, now time.Time,
	fn func(sealed []byte) ([]byte, error)) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO flow_sessions (verification_id, account_id, state, updated_at)
			SELECT $1::uuid, $2::uuid, ''::bytea, $3::timestamptz WHERE EXISTS (SELECT 1 FROM verifications WHERE id = $1 AND account_id = $2)
			ON CONFLICT (verification_id) DO NOTHING`, verificationID, accountID, ts(now)); err != nil {
			return mapErr(err)
		}
		var state []byte
		if err := tx.QueryRow(ctx, `SELECT state FROM flow_sessions WHERE verification_id = $1 AND account_id = $2 FOR UPDATE`,
			verificationID, accountID).Scan(&state); err != nil {
			return mapErr(err)
		}
		if len(state) == 0 {
			state = nil
		}
		out, err := fn(state)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE flow_sessions SET state = $1, updated_at = $2 WHERE verification_id = $3`,
			out, ts(now), verificationID)
		return err
	})
	if err != nil {
		return fmt.Errorf("update flow session: %w", err)
	}
	return nil
}

// GetFlowSession implements flow.Store.
func (s *Store) GetFlowSession(ctx context.Context, verificationID string) ([]byte, error) {
	var state []byte
	err := s.pool.QueryRow(ctx, `SELECT state FROM flow_sessions WHERE verification_id = $1 AND octet_length(state) > 0`,
		verificationID).Scan(&state)
	if err != nil {
		return nil, fmt.Errorf("get flow session: %w", mapErr(err))
	}
	return state, nil
}

// PutReviewImage implements flow.Store.
func (s *Store) PutReviewImage(ctx context.Context, accountID, verificationID string, kind flow.ReviewImage, sealed []byte, now time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO flow_review_images (verification_id, account_id, kind, data, created_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (verification_id, kind) DO UPDATE SET data = excluded.data, created_at = excluded.created_at`,
		verificationID, accountID, string(kind), sealed, ts(now))
	if err != nil {
		return fmt.Errorf("put review image: %w", mapErr(err))
	}
	return nil
}

// ReviewImages implements flow.Store.
func (s *Store) ReviewImages(ctx context.Context, accountID, verificationID string) (map[flow.ReviewImage][]byte, error) {
	rows, err := s.pool.Query(ctx, `SELECT kind, data FROM flow_review_images WHERE verification_id = $1 AND account_id = $2`,
		verificationID, accountID)
	if err != nil {
		return nil, fmt.Errorf("review images: %w", mapErr(err))
	}
	defer rows.Close()
	out := map[flow.ReviewImage][]byte{}
	for rows.Next() {
		var kind string
		var data []byte
		if err := rows.Scan(&kind, &data); err != nil {
			return nil, fmt.Errorf("review images: %w", err)
		}
		out[flow.ReviewImage(kind)] = data
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("review images: %w", mapErr(err))
	}
	return out, nil
}

// DeleteFlowData implements flow.Store.
func (s *Store) DeleteFlowData(ctx context.Context, verificationID string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM flow_sessions WHERE verification_id = $1`, verificationID); err != nil {
			return mapErr(err)
		}
		_, err := tx.Exec(ctx, `DELETE FROM flow_review_images WHERE verification_id = $1`, verificationID)
		return mapErr(err)
	})
	if err != nil {
		return fmt.Errorf("delete flow data: %w", err)
	}
	return nil
}
