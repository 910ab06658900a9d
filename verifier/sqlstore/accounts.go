package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

const accountCols = `id, email, password_hash, created_at, updated_at,
	webhook_secret, webhook_secret_previous, webhook_secret_previous_until`

var (
	insertAccountSQL     = q(`INSERT INTO accounts (` + accountCols + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`)
	getAccountSQL        = q(`SELECT ` + accountCols + ` FROM accounts WHERE id = $1`)
	getAccountByEmailSQL = q(`SELECT ` + accountCols + ` FROM accounts WHERE email = $1`)
	lockAccountSQL       = q(`SELECT ` + accountCols + ` FROM accounts WHERE id = $1 FOR UPDATE`)
	updateAccountSQL     = q(`UPDATE accounts SET email = $2, password_hash = $3, created_at = $4, updated_at = $5,
		webhook_secret = $6, webhook_secret_previous = $7, webhook_secret_previous_until = $8 WHERE id = $1`)
)

// CreateAccount inserts a; ErrConflict if its ID or e-mail is taken.
func (db *DB) CreateAccount(ctx context.Context, a verifier.Account) error {
	_, err := db.w.ExecContext(ctx, db.sql(insertAccountSQL), a.ID, a.Email, a.PasswordHash, ts(a.CreatedAt), ts(a.UpdatedAt),
		a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil))
	if err != nil {
		return fmt.Errorf("create account: %w", mapErr(err))
	}
	return nil
}

func (db *DB) GetAccount(ctx context.Context, id string) (verifier.Account, error) {
	a, err := scanAccount(db.r.QueryRowContext(ctx, db.sql(getAccountSQL), id))
	if err != nil {
		return verifier.Account{}, fmt.Errorf("get account %s: %w", id, err)
	}
	return a, nil
}

func (db *DB) GetAccountByEmail(ctx context.Context, email string) (verifier.Account, error) {
	a, err := scanAccount(db.r.QueryRowContext(ctx, db.sql(getAccountByEmailSQL), email))
	if err != nil {
		return verifier.Account{}, fmt.Errorf("get account by email: %w", err)
	}
	return a, nil
}

// UpdateAccount locks the row, applies fn and writes the result in one
// transaction. fn cannot change the ID.
func (db *DB) UpdateAccount(ctx context.Context, id string, fn func(*verifier.Account) error) (verifier.Account, error) {
	var out verifier.Account
	var fnErr error
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		a, err := scanAccount(tx.QueryRowContext(ctx, db.sql(lockAccountSQL), id))
		if err != nil {
			return err
		}
		if fnErr = fn(&a); fnErr != nil {
			return fnErr
		}
		a.ID = id
		a.CreatedAt, a.UpdatedAt = ts(a.CreatedAt), ts(a.UpdatedAt)
		if !a.WebhookSecretPreviousUntil.IsZero() {
			a.WebhookSecretPreviousUntil = ts(a.WebhookSecretPreviousUntil)
		}
		if _, err := tx.ExecContext(ctx, db.sql(updateAccountSQL), a.ID, a.Email, a.PasswordHash, a.CreatedAt, a.UpdatedAt,
			a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil)); err != nil {
			return mapErr(err)
		}
		out = a
		return nil
	})
	if fnErr != nil {
		return verifier.Account{}, fnErr
	}
	if err != nil {
		return verifier.Account{}, fmt.Errorf("update account %s: %w", id, err)
	}
	return out, nil
}

func scanAccount(row scanner) (verifier.Account, error) {
	var a verifier.Account
	if err := row.Scan(&a.ID, &a.Email, &a.PasswordHash, scanTime{&a.CreatedAt}, scanTime{&a.UpdatedAt},
		&a.WebhookSecret, &a.WebhookSecretPrevious, scanTime{&a.WebhookSecretPreviousUntil}); err != nil {
		return verifier.Account{}, mapErr(err)
	}
	return a, nil
}
