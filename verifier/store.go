package verifier

import (
	"context"
	"errors"
	"time"
)

// Errors of the Store contract. Implementations return these (wrapped with
// the operation, e.g. fmt.Errorf("get account: %w", ErrNotFound)); callers
// test them with errors.Is.
var (
	// ErrNotFound: no record with that key (or it belongs to another account).
	ErrNotFound = errors.New("not found")
	// ErrConflict: a uniqueness rule would be broken (e.g. e-mail taken).
	ErrConflict = errors.New("conflict")
)

// Store is the verifier's one persistence port: accounts, integration keys,
// verifications, templates and passphrase keys. Its one implementation,
// verifier/sqlstore (PostgreSQL or SQLite), is checked against it at compile
// time and passes the conformance suite in verifier/storetest on both.
//
// Contract:
//   - Times are stored and returned in UTC, truncated to microseconds.
//   - Update* methods read the record, call fn on it and write the result in
//     one transaction; if fn returns an error nothing is written and that
//     error is returned as is. fn may be called more than once on retry.
//   - Returned values are copies: mutating them never changes the store.
//   - The store never reads a clock: callers set CreatedAt/UpdatedAt (in fn,
//     for updates) from their injected Now.
//   - IDs are UUIDs; a malformed ID names no record (ErrNotFound), and so
//     does another account's record. fn cannot change a record's ID or
//     owner: those fields are restored before writing.
//   - fn runs inside the transaction and must not call the Store (the SQLite
//     backend has a single writer connection, which fn's caller holds).
//   - sqlstore.Open picks the database from a DSN and migrates it.
type Store interface {
	// CreateAccount inserts a; ErrConflict if its e-mail is taken.
	CreateAccount(ctx context.Context, a Account) error
	GetAccount(ctx context.Context, id string) (Account, error)
	// GetAccountByEmail looks up by the normalised e-mail.
	GetAccountByEmail(ctx context.Context, email string) (Account, error)
	// UpdateAccount cannot change ID or Branding.Logo (PutAccountLogo).
	UpdateAccount(ctx context.Context, id string, fn func(*Account) error) (Account, error)
	// PutAccountLogo makes l the account's logo (nil: none), with its
	// Branding.Logo and UpdatedAt (now) to match; ErrNotFound if the
	// account does not exist. GetAccountLogo reads the bytes back;
	// ErrNotFound when the account has no logo.
	PutAccountLogo(ctx context.Context, accountID string, l *Logo, now time.Time) error
	GetAccountLogo(ctx context.Context, accountID string) (Logo, error)

	// An account has one integration key per Mode (a live and a test
	// one). PutIntegrationKey makes k the account's only key of k.Mode,
	// deleting any previous one of that mode in the same transaction.
	// ErrNotFound if the account does not exist.
	PutIntegrationKey(ctx context.Context, k IntegrationKey) error
	GetIntegrationKey(ctx context.Context, accountID string, m Mode) (IntegrationKey, error)
	// GetIntegrationKeyByHash finds a key of either mode (k.Mode says which).
	GetIntegrationKeyByHash(ctx context.Context, hash []byte) (IntegrationKey, error)
	// UpdateIntegrationKey cannot change ID, AccountID or Mode.
	UpdateIntegrationKey(ctx context.Context, accountID string, m Mode, fn func(*IntegrationKey) error) (IntegrationKey, error)
	// DeleteIntegrationKey revokes the account's key of mode m; ErrNotFound
	// if none.
	DeleteIntegrationKey(ctx context.Context, accountID string, m Mode) error

	// CreateVerification stores v (Status must be pending) if its account
	// has a slot left under a for v.Type; otherwise a *QuotaError. A test
	// verification (v.Mode) is never counted, whatever a says. The check
	// and the insert are atomic per account. ErrNotFound if the account, or
	// a TemplateID of that account, does not exist; ErrConflict on a
	// duplicate ID or token hash.
	CreateVerification(ctx context.Context, v Verification, a Allowance) error
	GetVerification(ctx context.Context, accountID, id string) (Verification, error)
	// GetVerification finds the account's verification of either mode; the
	// domain checks the caller's mode (mode.go).
	// GetVerificationByTokenHash finds the verification behind an end user's
	// link, whatever its account.
	GetVerificationByTokenHash(ctx context.Context, hash []byte) (Verification, error)
	ListVerifications(ctx context.Context, accountID string, f VerificationFilter) (VerificationPage, error)
	// UpdateVerification is the one way a verification changes, including
	// every status change: a changed Status must pass CheckTransition, else
	// ErrInvalidTransition and nothing is written. fn cannot change ID,
	// AccountID, TokenHash, Type, Mode, TemplateID or CreatedAt.
	UpdateVerification(ctx context.Context, accountID, id string, fn func(*Verification) error) (Verification, error)
	// DeleteVerification hides the verification from every read and drops
	// its result, message and webhook settings; an unfinished one is
	// canceled first, releasing its slot, while a completed one keeps using
	// its allowance. Deleted verifications never send a webhook.
	DeleteVerification(ctx context.Context, accountID, id string, now time.Time) error
	// ExpireDue moves up to limit pending or started verifications whose
	// ExpiresAt is at or before now to expired, and returns their IDs. It is
	// idempotent and safe to run from several instances at once: each
	// verification is expired by exactly one call.
	ExpireDue(ctx context.Context, now time.Time, limit int) ([]string, error)
	// QuotaUsage counts, per type, the account's slot-holding live
	// verifications created at or after since (zero: all); test ones never.
	QuotaUsage(ctx context.Context, accountID string, since time.Time) (map[Type]int, error)

	// CreateTemplate stores t; ErrNotFound if its account does not exist.
	CreateTemplate(ctx context.Context, t Template) error
	GetTemplate(ctx context.Context, accountID, id string) (Template, error)
	// ListTemplates returns the account's templates, oldest first.
	ListTemplates(ctx context.Context, accountID string) ([]Template, error)
	// UpdateTemplate cannot change ID, AccountID or CreatedAt.
	UpdateTemplate(ctx context.Context, accountID, id string, fn func(*Template) error) (Template, error)
	// DeleteTemplate removes the template; verifications made from it keep
	// their copied settings and lose only the TemplateID reference.
	DeleteTemplate(ctx context.Context, accountID, id string) error

	// Passphrase keys (table passphrase_keys): only their public part.
	// CreatePassphraseKey stores k; ErrNotFound if its account does not exist.
	CreatePassphraseKey(ctx context.Context, k PassphraseKey) error
	GetPassphraseKey(ctx context.Context, accountID, id string) (PassphraseKey, error)
	// ListPassphraseKeys returns the account's keys, oldest first.
	ListPassphraseKeys(ctx context.Context, accountID string) ([]PassphraseKey, error)
	DeletePassphraseKey(ctx context.Context, accountID, id string) error

	// Dashboard sessions (dashsession.go): only their token's hash.
	DashboardSessionStore

	// Ping checks the database answers (used by /readyz).
	Ping(ctx context.Context) error
	Close() error
}
