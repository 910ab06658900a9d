package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/verifier"
)

const accountCols = `id, email, password_hash, created_at, updated_at,
	webhook_secret, webhook_secret_previous, webhook_secret_previous_until`

// CreateAccount inserts a; ErrConflict if its ID or e-mail is taken.
func (s *Store) CreateAccount(ctx context.Context, a verifier.Account) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO accounts (`+accountCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		a.ID, a.Email, a.PasswordHash, ts(a.CreatedAt), ts(a.UpdatedAt),
		a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil))
	if err != nil {
		return fmt.Errorf("create account: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetAccount(ctx context.Context, id string) (verifier.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = $1`, id))
	if err != nil {
		return verifier.Account{}, fmt.Errorf("get account %s: %w", id, err)
	}
	return a, nil
}

func (s *Store) GetAccountByEmail(ctx context.Context, email string) (verifier.Account, error) {
	a, err := scanAccount(s.pool.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts WHERE email = $1`, email))
	if err != nil {
		return verifier.Account{}, fmt.Errorf("get account by email: %w", err)
	}
	return a, nil
}

// UpdateAccount locks the row, applies fn and writes the result in one
// transaction. fn cannot change the ID.
func (s *Store) UpdateAccount(ctx context.Context, id string, fn func(*verifier.Account) error) (verifier.Account, error) {
	var out verifier.Account
	var fnErr error
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		a, err := scanAccount(tx.QueryRow(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = $1 FOR UPDATE`, id))
		if err != nil {
			return err
		}
		if fnErr = fn(&a); fnErr != nil {
			return fnErr
		}
		a.ID = id
		a.CreatedAt, a.UpdatedAt = ts(a.CreatedAt), ts(a.UpdatedAt)
		a.WebhookSecretPreviousUntil = fromNull(&a.WebhookSecretPreviousUntil)
		if _, err := tx.Exec(ctx, `UPDATE accounts SET email = $2, password_hash = $3, created_at = $4, updated_at = $5,
			webhook_secret = $6, webhook_secret_previous = $7, webhook_secret_previous_until = $8 WHERE id = $1`,
			a.ID, a.Email, a.PasswordHash, a.CreatedAt, a.UpdatedAt,
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

func scanAccount(row pgx.Row) (verifier.Account, error) {
	var a verifier.Account
	var previousUntil *time.Time
	if err := row.Scan(&a.ID, &a.Email, &a.PasswordHash, &a.CreatedAt, &a.UpdatedAt,
		&a.WebhookSecret, &a.WebhookSecretPrevious, &previousUntil); err != nil {
		return verifier.Account{}, mapErr(err)
	}
	a.CreatedAt, a.UpdatedAt = ts(a.CreatedAt), ts(a.UpdatedAt)
	a.WebhookSecretPreviousUntil = fromNull(previousUntil)
	return a, nil
}
