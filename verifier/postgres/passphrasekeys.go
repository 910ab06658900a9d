package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/verifier"
)

const passphraseKeyCols = `id, account_id, name, public_key, kdf, created_at`

func (s *Store) CreatePassphraseKey(ctx context.Context, k verifier.PassphraseKey) error {
	kdf, err := json.Marshal(k.Key.KDF)
	if err != nil {
		return fmt.Errorf("create passphrase key: %w", err)
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO passphrase_keys (`+passphraseKeyCols+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		k.Key.ID, k.AccountID, k.Key.Name, k.Key.PublicKey, kdf, ts(k.CreatedAt))
	if err != nil {
		return fmt.Errorf("create passphrase key: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetPassphraseKey(ctx context.Context, accountID, id string) (verifier.PassphraseKey, error) {
	k, err := scanPassphraseKey(s.pool.QueryRow(ctx, `SELECT `+passphraseKeyCols+` FROM passphrase_keys
		WHERE id = $1 AND account_id = $2`, id, accountID))
	if err != nil {
		return verifier.PassphraseKey{}, fmt.Errorf("get passphrase key %s: %w", id, err)
	}
	return k, nil
}

func (s *Store) ListPassphraseKeys(ctx context.Context, accountID string) ([]verifier.PassphraseKey, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+passphraseKeyCols+` FROM passphrase_keys
		WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list passphrase keys: %w", mapErr(err))
	}
	ks, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (verifier.PassphraseKey, error) { return scanPassphraseKey(r) })
	if err != nil {
		return nil, fmt.Errorf("list passphrase keys: %w", mapErr(err))
	}
	return ks, nil
}

func (s *Store) DeletePassphraseKey(ctx context.Context, accountID, id string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM passphrase_keys WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return fmt.Errorf("delete passphrase key %s: %w", id, mapErr(err))
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delete passphrase key %s: %w", id, verifier.ErrNotFound)
	}
	return nil
}

func scanPassphraseKey(row pgx.Row) (verifier.PassphraseKey, error) {
	var k verifier.PassphraseKey
	var kdf []byte
	if err := row.Scan(&k.Key.ID, &k.AccountID, &k.Key.Name, &k.Key.PublicKey, &kdf, &k.CreatedAt); err != nil {
		return verifier.PassphraseKey{}, mapErr(err)
	}
	if err := json.Unmarshal(kdf, &k.Key.KDF); err != nil {
		return verifier.PassphraseKey{}, fmt.Errorf("decode kdf: %w", err)
	}
	k.CreatedAt = ts(k.CreatedAt)
	return k, nil
}
