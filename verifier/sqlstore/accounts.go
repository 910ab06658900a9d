package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

// accountCols are what an account read takes: the logo's digest and size,
// never its bytes (getAccountLogoSQL).
const accountCols = `id, email, password_hash, created_at, updated_at,
	webhook_secret, webhook_secret_previous, webhook_secret_previous_until,
	display_name, accent_color, support_contact, privacy_policy_url,
	logo_sha256, logo_type, logo_width, logo_height`

const accountWriteCols = `id, email, password_hash, created_at, updated_at,
	webhook_secret, webhook_secret_previous, webhook_secret_previous_until,
	display_name, accent_color, support_contact, privacy_policy_url`

var (
	insertAccountSQL     = q(`INSERT INTO accounts (` + accountWriteCols + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`)
	getAccountSQL        = q(`SELECT ` + accountCols + ` FROM accounts WHERE id = $1`)
	getAccountByEmailSQL = q(`SELECT ` + accountCols + ` FROM accounts WHERE email = $1`)
	lockAccountSQL       = q(`SELECT ` + accountCols + ` FROM accounts WHERE id = $1 FOR UPDATE`)
	updateAccountSQL     = q(`UPDATE accounts SET email = $2, password_hash = $3, created_at = $4, updated_at = $5,
		webhook_secret = $6, webhook_secret_previous = $7, webhook_secret_previous_until = $8,
		display_name = $9, accent_color = $10, support_contact = $11, privacy_policy_url = $12 WHERE id = $1`)
	putAccountLogoSQL = q(`UPDATE accounts SET logo = $2, logo_sha256 = $3, logo_type = $4, logo_width = $5, logo_height = $6,
		updated_at = $7 WHERE id = $1`)
	getAccountLogoSQL = q(`SELECT logo, logo_sha256, logo_type, logo_width, logo_height FROM accounts WHERE id = $1 AND logo IS NOT NULL`)
)

// CreateAccount inserts a; ErrConflict if its ID or e-mail is taken. A
// logo is stored apart (PutAccountLogo): a.Branding.Logo is not written.
func (db *DB) CreateAccount(ctx context.Context, a verifier.Account) error {
	b := a.Branding
	_, err := db.w.ExecContext(ctx, db.sql(insertAccountSQL), a.ID, a.Email, a.PasswordHash, ts(a.CreatedAt), ts(a.UpdatedAt),
		a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil),
		b.DisplayName, b.AccentColor, b.SupportContact, b.PrivacyPolicyURL)
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
// transaction. fn cannot change the ID or the logo (PutAccountLogo).
func (db *DB) UpdateAccount(ctx context.Context, id string, fn func(*verifier.Account) error) (verifier.Account, error) {
	var out verifier.Account
	var fnErr error
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		a, err := scanAccount(tx.QueryRowContext(ctx, db.sql(lockAccountSQL), id))
		if err != nil {
			return err
		}
		logo := a.Branding.Logo
		if fnErr = fn(&a); fnErr != nil {
			return fnErr
		}
		a.ID, a.Branding.Logo = id, logo
		a.CreatedAt, a.UpdatedAt = ts(a.CreatedAt), ts(a.UpdatedAt)
		if !a.WebhookSecretPreviousUntil.IsZero() {
			a.WebhookSecretPreviousUntil = ts(a.WebhookSecretPreviousUntil)
		}
		if _, err := tx.ExecContext(ctx, db.sql(updateAccountSQL), a.ID, a.Email, a.PasswordHash, a.CreatedAt, a.UpdatedAt,
			a.WebhookSecret, a.WebhookSecretPrevious, nullTime(a.WebhookSecretPreviousUntil),
			a.Branding.DisplayName, a.Branding.AccentColor, a.Branding.SupportContact, a.Branding.PrivacyPolicyURL); err != nil {
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
	b := &a.Branding
	if err := row.Scan(&a.ID, &a.Email, &a.PasswordHash, scanTime{&a.CreatedAt}, scanTime{&a.UpdatedAt},
		&a.WebhookSecret, &a.WebhookSecretPrevious, scanTime{&a.WebhookSecretPreviousUntil},
		&b.DisplayName, &b.AccentColor, &b.SupportContact, &b.PrivacyPolicyURL,
		&b.Logo.SHA256, &b.Logo.ContentType, &b.Logo.Width, &b.Logo.Height); err != nil {
		return verifier.Account{}, mapErr(err)
	}
	return a, nil
}

// PutAccountLogo sets (or, with l nil, removes) the account's logo and
// stamps updated_at, in one statement.
func (db *DB) PutAccountLogo(ctx context.Context, accountID string, l *verifier.Logo, now time.Time) error {
	var (
		body []byte
		ref  verifier.LogoRef
	)
	if l != nil {
		body, ref = l.Body, l.LogoRef
	}
	res, err := db.w.ExecContext(ctx, db.sql(putAccountLogoSQL), accountID, body, ref.SHA256, ref.ContentType, ref.Width, ref.Height, ts(now))
	if err != nil {
		return fmt.Errorf("put account logo: %w", mapErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("put account logo %s: %w", accountID, verifier.ErrNotFound)
	}
	return nil
}

// GetAccountLogo is the account's logo; ErrNotFound when it has none.
func (db *DB) GetAccountLogo(ctx context.Context, accountID string) (verifier.Logo, error) {
	var l verifier.Logo
	err := db.r.QueryRowContext(ctx, db.sql(getAccountLogoSQL), accountID).Scan(&l.Body, &l.SHA256, &l.ContentType, &l.Width, &l.Height)
	if err != nil {
		return verifier.Logo{}, fmt.Errorf("get account logo %s: %w", accountID, mapErr(err))
	}
	return l, nil
}
