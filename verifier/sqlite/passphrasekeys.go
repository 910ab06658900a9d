package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

const passphraseKeyCols = `id, account_id, name, public_key, kdf, created_at`

func (s *Store) CreatePassphraseKey(ctx context.Context, k verifier.PassphraseKey) error {
	kdf, err := json.Marshal(k.Key.KDF)
	if err != nil {
		return fmt.Errorf("create passphrase key: %w", err)
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO passphrase_keys (`+passphraseKeyCols+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		k.Key.ID, k.AccountID, k.Key.Name, k.Key.PublicKey, string(kdf), toDB(k.CreatedAt))
	if err != nil {
		return fmt.Errorf("create passphrase key: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetPassphraseKey(ctx context.Context, accountID, id string) (verifier.PassphraseKey, error) {
	k, err := scanPassphraseKey(s.r.QueryRowContext(ctx, `SELECT `+passphraseKeyCols+` FROM passphrase_keys
		WHERE id = $1 AND account_id = $2`, id, accountID))
	if err != nil {
		return verifier.PassphraseKey{}, fmt.Errorf("get passphrase key %s: %w", id, err)
	}
	return k, nil
}

func (s *Store) ListPassphraseKeys(ctx context.Context, accountID string) ([]verifier.PassphraseKey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+passphraseKeyCols+` FROM passphrase_keys
		WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list passphrase keys: %w", err)
	}
	defer rows.Close()
	var ks []verifier.PassphraseKey
	for rows.Next() {
		k, err := scanPassphraseKey(rows)
		if err != nil {
			return nil, fmt.Errorf("list passphrase keys: %w", err)
		}
		ks = append(ks, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list passphrase keys: %w", err)
	}
	return ks, nil
}

func (s *Store) DeletePassphraseKey(ctx context.Context, accountID, id string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM passphrase_keys WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return fmt.Errorf("delete passphrase key %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("delete passphrase key %s: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("delete passphrase key %s: %w", id, verifier.ErrNotFound)
	}
	return nil
}

func scanPassphraseKey(row scanner) (verifier.PassphraseKey, error) {
	var k verifier.PassphraseKey
	var kdf string
	var created int64
	if err := row.Scan(&k.Key.ID, &k.AccountID, &k.Key.Name, &k.Key.PublicKey, &kdf, &created); err != nil {
		return verifier.PassphraseKey{}, notFound(err)
	}
	if err := json.Unmarshal([]byte(kdf), &k.Key.KDF); err != nil {
		return verifier.PassphraseKey{}, fmt.Errorf("decode kdf: %w", err)
	}
	k.CreatedAt = fromDB(created)
	return k, nil
}
