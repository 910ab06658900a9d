package sqlstore

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

const keyCols = `id, account_id, prefix, hash, allowed_domains, rate_limit_per_hour, created_at, updated_at, test`

var (
	// putKeySQL upserts on (account_id, test): the previous key's row of
	// the mode is replaced in
	// the same statement, so no moment exists with two keys or none, and
	// concurrent Puts for one account queue on the row instead of failing.
	putKeySQL = q(`INSERT INTO integration_keys (` + keyCols + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (account_id, test) DO UPDATE SET
			id = excluded.id, prefix = excluded.prefix, hash = excluded.hash,
			allowed_domains = excluded.allowed_domains, rate_limit_per_hour = excluded.rate_limit_per_hour,
			created_at = excluded.created_at, updated_at = excluded.updated_at`)
	getKeySQL       = q(`SELECT ` + keyCols + ` FROM integration_keys WHERE account_id = $1 AND test = $2`)
	getKeyByHashSQL = q(`SELECT ` + keyCols + ` FROM integration_keys WHERE hash = $1`)
	lockKeySQL      = q(`SELECT ` + keyCols + ` FROM integration_keys WHERE account_id = $1 AND test = $2 FOR UPDATE`)
	updateKeySQL    = q(`UPDATE integration_keys SET prefix = $3, hash = $4, allowed_domains = $5,
		rate_limit_per_hour = $6, created_at = $7, updated_at = $8 WHERE account_id = $1 AND test = $2`)
	deleteKeySQL = q(`DELETE FROM integration_keys WHERE account_id = $1 AND test = $2`)
)

func (db *DB) PutIntegrationKey(ctx context.Context, k verifier.IntegrationKey) error {
	_, err := db.w.ExecContext(ctx, db.sql(putKeySQL), k.ID, k.AccountID, k.Prefix, k.Hash,
		string(stringList(k.AllowedDomains)), k.RateLimitPerHour, ts(k.CreatedAt), ts(k.UpdatedAt), bool(k.Mode))
	if err != nil {
		return fmt.Errorf("put integration key: %w", mapErr(err))
	}
	return nil
}

func (db *DB) GetIntegrationKey(ctx context.Context, accountID string, m verifier.Mode) (verifier.IntegrationKey, error) {
	k, err := scanKey(db.r.QueryRowContext(ctx, db.sql(getKeySQL), accountID, bool(m)))
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("get integration key of %s: %w", accountID, err)
	}
	return k, nil
}

func (db *DB) GetIntegrationKeyByHash(ctx context.Context, hash []byte) (verifier.IntegrationKey, error) {
	k, err := scanKey(db.r.QueryRowContext(ctx, db.sql(getKeyByHashSQL), hash))
	if err != nil {
		return verifier.IntegrationKey{}, fmt.Errorf("get integration key by hash: %w", err)
	}
	return k, nil
}

// UpdateIntegrationKey locks the row, applies fn and writes the result in one
// transaction. fn cannot change the key's ID, account or mode.
func (db *DB) UpdateIntegrationKey(ctx context.Context, accountID string, m verifier.Mode, fn func(*verifier.IntegrationKey) error) (verifier.IntegrationKey, error) {
	var out verifier.IntegrationKey
	var fnErr error
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		k, err := scanKey(tx.QueryRowContext(ctx, db.sql(lockKeySQL), accountID, bool(m)))
		if err != nil {
			return err
		}
		id := k.ID
		if fnErr = fn(&k); fnErr != nil {
			return fnErr
		}
		k.ID, k.AccountID, k.Mode = id, accountID, m
		domains := stringList(k.AllowedDomains)
		if _, err := tx.ExecContext(ctx, db.sql(updateKeySQL), accountID, bool(m), k.Prefix, k.Hash, string(domains),
			k.RateLimitPerHour, ts(k.CreatedAt), ts(k.UpdatedAt)); err != nil {
			return mapErr(err)
		}
		// Return what a later read returns, sharing no memory with fn's copy.
		k.Hash = bytes.Clone(k.Hash)
		k.AllowedDomains, _ = parseStringList(domains)
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

func (db *DB) DeleteIntegrationKey(ctx context.Context, accountID string, m verifier.Mode) error {
	n, err := rowsAffected(db.w.ExecContext(ctx, db.sql(deleteKeySQL), accountID, bool(m)))
	if err != nil {
		return fmt.Errorf("delete integration key of %s: %w", accountID, mapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("delete integration key of %s: %w", accountID, verifier.ErrNotFound)
	}
	return nil
}

func scanKey(row scanner) (verifier.IntegrationKey, error) {
	var k verifier.IntegrationKey
	var domains []byte
	if err := row.Scan(&k.ID, &k.AccountID, &k.Prefix, &k.Hash, &domains, scanInt{&k.RateLimitPerHour},
		scanTime{&k.CreatedAt}, scanTime{&k.UpdatedAt}, (*bool)(&k.Mode)); err != nil {
		return verifier.IntegrationKey{}, mapErr(err)
	}
	var err error
	if k.AllowedDomains, err = parseStringList(domains); err != nil {
		return verifier.IntegrationKey{}, err
	}
	return k, nil
}
