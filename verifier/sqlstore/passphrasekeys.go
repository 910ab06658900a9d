package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

const passphraseKeyCols = `id, account_id, name, public_key, kdf, created_at`

var (
	insertPassphraseKeySQL = q(`INSERT INTO passphrase_keys (` + passphraseKeyCols + `) VALUES ($1, $2, $3, $4, $5, $6)`)
	getPassphraseKeySQL    = q(`SELECT ` + passphraseKeyCols + ` FROM passphrase_keys WHERE id = $1 AND account_id = $2`)
	listPassphraseKeysSQL  = q(`SELECT ` + passphraseKeyCols + ` FROM passphrase_keys WHERE account_id = $1 ORDER BY created_at, id`)
	deletePassphraseKeySQL = q(`DELETE FROM passphrase_keys WHERE id = $1 AND account_id = $2`)
)

func (db *DB) CreatePassphraseKey(ctx context.Context, k verifier.PassphraseKey) error {
	kdf, err := json.Marshal(k.Key.KDF)
	if err != nil {
		return fmt.Errorf("create passphrase key: %w", err)
	}
	_, err = db.w.ExecContext(ctx, db.sql(insertPassphraseKeySQL), k.Key.ID, k.AccountID, k.Key.Name, k.Key.PublicKey,
		string(kdf), ts(k.CreatedAt))
	if err != nil {
		return fmt.Errorf("create passphrase key: %w", mapErr(err))
	}
	return nil
}

func (db *DB) GetPassphraseKey(ctx context.Context, accountID, id string) (verifier.PassphraseKey, error) {
	k, err := scanPassphraseKey(db.r.QueryRowContext(ctx, db.sql(getPassphraseKeySQL), id, accountID))
	if err != nil {
		return verifier.PassphraseKey{}, fmt.Errorf("get passphrase key %s: %w", id, err)
	}
	return k, nil
}

func (db *DB) ListPassphraseKeys(ctx context.Context, accountID string) ([]verifier.PassphraseKey, error) {
	rows, err := db.r.QueryContext(ctx, db.sql(listPassphraseKeysSQL), accountID)
	if err != nil {
		return nil, fmt.Errorf("list passphrase keys: %w", mapErr(err))
	}
	ks, err := collect(rows, scanPassphraseKey)
	if err != nil {
		return nil, fmt.Errorf("list passphrase keys: %w", err)
	}
	return ks, nil
}

func (db *DB) DeletePassphraseKey(ctx context.Context, accountID, id string) error {
	n, err := rowsAffected(db.w.ExecContext(ctx, db.sql(deletePassphraseKeySQL), id, accountID))
	if err != nil {
		return fmt.Errorf("delete passphrase key %s: %w", id, mapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("delete passphrase key %s: %w", id, verifier.ErrNotFound)
	}
	return nil
}

func scanPassphraseKey(row scanner) (verifier.PassphraseKey, error) {
	var k verifier.PassphraseKey
	var kdf []byte
	if err := row.Scan(&k.Key.ID, &k.AccountID, &k.Key.Name, &k.Key.PublicKey, &kdf, scanTime{&k.CreatedAt}); err != nil {
		return verifier.PassphraseKey{}, mapErr(err)
	}
	if err := json.Unmarshal(kdf, &k.Key.KDF); err != nil {
		return verifier.PassphraseKey{}, fmt.Errorf("decode kdf: %w", err)
	}
	return k, nil
}
