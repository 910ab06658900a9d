package postgres

import (
	"bytes"
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storage/jsoncol"
)

const keyCols = `id, account_id, prefix, hash, allowed_domains, rate_limit_per_hour, created_at, updated_at`

// PutIntegrationKey upserts on account_id: the previous key's row is
// replaced in the same statement, so no moment exists with two keys or none,
// and concurrent Puts for one account queue on the row instead of failing.
func (s *Store) PutIntegrationKey(ctx context.Context, k verifier.IntegrationKey) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO integration_keys (`+keyCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (account_id) DO UPDATE SET
			id = excluded.id, prefix = excluded.prefix, hash = excluded.hash,
			allowed_domains = excluded.allowed_domains, rate_limit_per_hour = excluded.rate_limit_per_hour,
			created_at = excluded.created_at, updated_at = excluded.updated_at`,
		k.ID, k.AccountID, k.Prefix, k.Hash, jsoncol.StringList(k.AllowedDomains), k.RateLimitPerHour,
		ts(k.CreatedAt), ts(k.UpdatedAt))
	if err != nil {
		return fmt.Errorf("put integration key: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetIntegrationKey(ctx context.Context, accountID string) (verifier.IntegrationKey, error) {
	k, err := scanKey(s.pool.QueryRow(ctx, `SELECT `+keyCols+` FROM integration_keys WHERE account_id = $1`, accountID))
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("get integration key of %s: %w", accountID, err)
	}
	return k, nil
}

func (s *Store) GetIntegrationKeyByHash(ctx context.Context, hash []byte) (verifier.IntegrationKey, error) {
	k, err := scanKey(s.pool.QueryRow(ctx, `SELECT `+keyCols+` FROM integration_keys WHERE hash = $1`, hash))
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("get integration key by hash: %w", err)
	}
	return k, nil
}

// UpdateIntegrationKey locks the row, applies fn and writes the result in one
// transaction. fn cannot change the key's ID or account.
func (s *Store) UpdateIntegrationKey(ctx context.Context, accountID string, fn func(*verifier.IntegrationKey) error) (verifier.IntegrationKey, error) {
	var out verifier.IntegrationKey
	var fnErr error
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		k, err := scanKey(tx.QueryRow(ctx, `SELECT `+keyCols+` FROM integration_keys WHERE account_id = $1 FOR UPDATE`, accountID))
		if err != nil {
			return err
		}
		id := k.ID
		if fnErr = fn(&k); fnErr != nil {
			return fnErr
		}
		k.ID, k.AccountID = id, accountID
		domains := jsoncol.StringList(k.AllowedDomains)
		if _, err := tx.Exec(ctx, `UPDATE integration_keys SET prefix = $2, hash = $3, allowed_domains = $4,
			rate_limit_per_hour = $5, created_at = $6, updated_at = $7 WHERE account_id = $1`,
			accountID, k.Prefix, k.Hash, domains, k.RateLimitPerHour, ts(k.CreatedAt), ts(k.UpdatedAt)); err != nil {
			return mapErr(err)
		}
		// Return what a later read returns, sharing no memory with fn's copy.
		k.Hash = bytes.Clone(k.Hash)
		k.AllowedDomains, _ = jsoncol.ParseStringList(domains)
		k.CreatedAt, k.UpdatedAt = ts(k.CreatedAt), ts(k.UpdatedAt)
		out = k
		return nil
	})
	if fnErr != nil {
		return verifier.IntegrationKey{}, fnErr
	}
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("update integration key of %s: %w", accountID, err)
	}
	return out, nil
}

func (s *Store) DeleteIntegrationKey(ctx context.Context, accountID string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM integration_keys WHERE account_id = $1`, accountID)
	if err != nil {
		return fmt.Errorf("delete integration key of %s: %w", accountID, mapErr(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delete integration key of %s: %w", accountID, verifier.ErrNotFound)
	}
	return nil
}

func scanKey(row pgx.Row) (verifier.IntegrationKey, error) {
	var k verifier.IntegrationKey
	var domains []byte
	if err := row.Scan(&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &domains, &k.RateLimitPerHour, &k.CreatedAt, &k.UpdatedAt); err != nil {
		return verifier.IntegrationKey{}, mapErr(err)
	}
	var err error
	if k.AllowedDomains, err = jsoncol.ParseStringList(domains); err != nil {
		return verifier.IntegrationKey{}, err
	}
	k.CreatedAt, k.UpdatedAt = ts(k.CreatedAt), ts(k.UpdatedAt)
	return k, nil
}
