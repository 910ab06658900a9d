package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storage/jsoncol"
)

const keyCols = `id, account_id, prefix, hash, allowed_domains, rate_limit_per_hour, created_at, updated_at`

// PutIntegrationKey upserts on account_id: the previous key's row is
// replaced in the same statement, so no moment exists with two keys or none.
func (s *Store) PutIntegrationKey(ctx context.Context, k verifier.IntegrationKey) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO integration_keys (`+keyCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (account_id) DO UPDATE SET
			id = excluded.id, prefix = excluded.prefix, hash = excluded.hash,
			allowed_domains = excluded.allowed_domains, rate_limit_per_hour = excluded.rate_limit_per_hour,
			created_at = excluded.created_at, updated_at = excluded.updated_at`,
		k.ID, k.AccountID, k.Prefix, k.Hash, string(jsoncol.StringList(k.AllowedDomains)), k.RateLimitPerHour,
		toDB(k.CreatedAt), toDB(k.UpdatedAt))
	if err != nil {
		return fmt.Errorf("put integration key: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetIntegrationKey(ctx context.Context, accountID string) (verifier.IntegrationKey, error) {
	k, err := scanKey(s.r.QueryRowContext(ctx, `SELECT `+keyCols+` FROM integration_keys WHERE account_id = ?`, accountID))
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("get integration key of %s: %w", accountID, err)
	}
	return k, nil
}

func (s *Store) GetIntegrationKeyByHash(ctx context.Context, hash []byte) (verifier.IntegrationKey, error) {
	k, err := scanKey(s.r.QueryRowContext(ctx, `SELECT `+keyCols+` FROM integration_keys WHERE hash = ?`, hash))
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("get integration key by hash: %w", err)
	}
	return k, nil
}

// UpdateIntegrationKey applies fn in one write transaction. fn cannot change
// the key's ID or account.
func (s *Store) UpdateIntegrationKey(ctx context.Context, accountID string, fn func(*verifier.IntegrationKey) error) (verifier.IntegrationKey, error) {
	var out verifier.IntegrationKey
	var fnErr error
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		k, err := scanKey(tx.QueryRowContext(ctx, `SELECT `+keyCols+` FROM integration_keys WHERE account_id = ?`, accountID))
		if err != nil {
			return err
		}
		id := k.ID
		if fnErr = fn(&k); fnErr != nil {
			return fnErr
		}
		k.ID, k.AccountID = id, accountID
		if _, err := tx.ExecContext(ctx, `UPDATE integration_keys SET prefix = ?, hash = ?, allowed_domains = ?,
			rate_limit_per_hour = ?, created_at = ?, updated_at = ? WHERE account_id = ?`,
			k.Prefix, k.Hash, string(jsoncol.StringList(k.AllowedDomains)), k.RateLimitPerHour,
			toDB(k.CreatedAt), toDB(k.UpdatedAt), accountID); err != nil {
			return mapErr(err)
		}
		out = normKey(k)
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
	res, err := s.w.ExecContext(ctx, `DELETE FROM integration_keys WHERE account_id = ?`, accountID)
	if err != nil {
		return fmt.Errorf("delete integration key of %s: %w", accountID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete integration key of %s: %w", accountID, err)
	} else if n == 0 {
		return fmt.Errorf("delete integration key of %s: %w", accountID, verifier.ErrNotFound)
	}
	return nil
}

func scanKey(row *sql.Row) (verifier.IntegrationKey, error) {
	var k verifier.IntegrationKey
	var domains string
	var created, updated int64
	if err := row.Scan(&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &domains, &k.RateLimitPerHour, &created, &updated); err != nil {
		return verifier.IntegrationKey{}, notFound(err)
	}
	var err error
	if k.AllowedDomains, err = jsoncol.ParseStringList([]byte(domains)); err != nil {
		return verifier.IntegrationKey{}, err
	}
	k.CreatedAt, k.UpdatedAt = fromDB(created), fromDB(updated)
	return k, nil
}

// normKey is k as a later read returns it, sharing no memory with the
// caller's copy.
func normKey(k verifier.IntegrationKey) verifier.IntegrationKey {
	k.Hash = append([]byte(nil), k.Hash...)
	k.AllowedDomains, _ = jsoncol.ParseStringList(jsoncol.StringList(k.AllowedDomains))
	k.CreatedAt, k.UpdatedAt = norm(k.CreatedAt), norm(k.UpdatedAt)
	return k
}
