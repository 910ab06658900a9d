package verifier

import (
	"context"
	"errors"
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

// Store is the verifier's persistence. Every backend (sqlite, postgres)
// passes the conformance suite in verifier/storetest.
//
// Contract:
//   - Times are stored and returned in UTC, truncated to microseconds.
//   - Update* methods read the record, call fn on it and write the result in
//     one transaction; if fn returns an error nothing is written and that
//     error is returned as is. fn may be called more than once on retry.
//   - Returned values are copies: mutating them never changes the store.
//   - The store never reads a clock: callers set CreatedAt/UpdatedAt (in fn,
//     for updates) from their injected Now.
//   - IDs are UUIDs; a malformed ID names no record (ErrNotFound). fn cannot
//     change a record's ID or owner: those fields are restored before writing.
//   - fn runs inside the transaction and must not call the Store (the SQLite
//     backend has a single writer connection, which fn's caller holds).
//   - Backends: verifier/sqlite and verifier/postgres; verifier/storage.Open
//     picks one from a DSN and migrates it.
type Store interface {
	// CreateAccount inserts a; ErrConflict if its e-mail is taken.
	CreateAccount(ctx context.Context, a Account) error
	GetAccount(ctx context.Context, id string) (Account, error)
	// GetAccountByEmail looks up by the normalised e-mail.
	GetAccountByEmail(ctx context.Context, email string) (Account, error)
	UpdateAccount(ctx context.Context, id string, fn func(*Account) error) (Account, error)

	// PutIntegrationKey makes k the account's only integration key,
	// deleting any previous one in the same transaction. ErrNotFound if the
	// account does not exist.
	PutIntegrationKey(ctx context.Context, k IntegrationKey) error
	GetIntegrationKey(ctx context.Context, accountID string) (IntegrationKey, error)
	GetIntegrationKeyByHash(ctx context.Context, hash []byte) (IntegrationKey, error)
	UpdateIntegrationKey(ctx context.Context, accountID string, fn func(*IntegrationKey) error) (IntegrationKey, error)
	// DeleteIntegrationKey revokes the account's key; ErrNotFound if none.
	DeleteIntegrationKey(ctx context.Context, accountID string) error

	// Ping checks the database answers (used by /readyz).
	Ping(ctx context.Context) error
	Close() error
}
