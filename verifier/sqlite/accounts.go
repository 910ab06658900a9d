package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

const accountCols = `id, email, password_hash, created_at, updated_at,
	webhook_secret, webhook_secret_previous, webhook_secret_previous_until`

// CreateAccount inserts a; ErrConflict if its ID or e-mail is taken.
func (s *Store) CreateAccount(ctx context.Context, a verifier.Account) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO accounts (`+accountCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.Email, a.PasswordHash, toDB(a.CreatedAt), toDB(a.UpdatedAt),
		a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil))
	if err != nil {
		return fmt.Errorf("create account: %w", mapErr(err))
	}
	return nil
}

func (s *Store) GetAccount(ctx context.Context, id string) (verifier.Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = ?`, id))
	if err != nil {
		return verifier.Account{}, fmt.Errorf("get account %s: %w", id, err)
	}
	return a, nil
}

func (s *Store) GetAccountByEmail(ctx context.Context, email string) (verifier.Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE email = ?`, email))
	if err != nil {
		return verifier.Account{}, fmt.Errorf("get account by email: %w", err)
	}
	return a, nil
}

// UpdateAccount applies fn in one write transaction. fn cannot change the ID.
func (s *Store) UpdateAccount(ctx context.Context, id string, fn func(*verifier.Account) error) (verifier.Account, error) {
	var out verifier.Account
	var fnErr error
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		a, err := scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = ?`, id))
		if err != nil {
			return err
		}
		if fnErr = fn(&a); fnErr != nil {
			return fnErr
		}
		a.ID = id
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET email = ?, password_hash = ?, created_at = ?, updated_at = ?,
			webhook_secret = ?, webhook_secret_previous = ?, webhook_secret_previous_until = ? WHERE id = ?`,
			a.Email, a.PasswordHash, toDB(a.CreatedAt), toDB(a.UpdatedAt),
			a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil), id); err != nil {
			return mapErr(err)
		}
		out = normAccount(a)
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

func scanAccount(row *sql.Row) (verifier.Account, error) {
	var a verifier.Account
	var created, updated int64
	var previousUntil sql.NullInt64
	if err := row.Scan(&a.ID, &a.Email, &a.PasswordHash, &created, &updated,
		&a.WebhookSecret, &a.WebhookSecretPrevious, &previousUntil); err != nil {
		return verifier.Account{}, notFound(err)
	}
	a.CreatedAt, a.UpdatedAt = fromDB(created), fromDB(updated)
	a.WebhookSecretPreviousUntil = fromNull(previousUntil)
	return a, nil
}

// normAccount is a as a later read returns it.
func normAccount(a verifier.Account) verifier.Account {
	a.CreatedAt, a.UpdatedAt = norm(a.CreatedAt), norm(a.UpdatedAt)
	if !a.WebhookSecretPreviousUntil.IsZero() {
		a.WebhookSecretPreviousUntil = norm(a.WebhookSecretPreviousUntil)
	}
	return a
}

func norm(t time.Time) time.Time { return fromDB(toDB(t)) }
