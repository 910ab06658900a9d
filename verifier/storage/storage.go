// Package storage opens the verifier.Store a DSN names and brings its schema
// up to date. The serve and migrate commands call Open with
// IDGATE_DATABASE_URL.
//
// DSN forms:
//   - postgres://... or postgresql://...  PostgreSQL (pgx URL syntax)
//   - sqlite:PATH, sqlite://PATH          SQLite file at PATH
//     (sqlite:///abs/path is absolute, sqlite:var/idgate.db relative)
//   - PATH                                a plain file path: SQLite
//
// Any other scheme ("mysql://...") is refused rather than taken for a file
// name. The SQLite file's parent directory is created (0700) if missing.
package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/postgres"
	"github.com/idgate/idgate/verifier/sqlite"
	"github.com/idgate/idgate/verifier/webhook"
)

// Migrator is the schema side of a store.
type Migrator interface {
	// Migrate applies pending migrations (idempotent, safe concurrently).
	Migrate(ctx context.Context) error
	// SchemaVersion is the highest applied migration.
	SchemaVersion(ctx context.Context) (int, error)
}

// Store is what Open returns: the verifier's Store, its schema and its
// webhook delivery outbox. Both backends are checked against it at compile
// time, so callers never assert.
type Store interface {
	verifier.Store
	Migrator
	// WebhookQueue is the outbox the webhook worker claims from.
	WebhookQueue() webhook.Queue
	// OnWebhookEnqueued sets fn to run after every commit that enqueued a
	// delivery (the worker's Wake); nil turns it off.
	OnWebhookEnqueued(fn func())
}

var (
	_ Store = (*postgres.Store)(nil)
	_ Store = (*sqlite.Store)(nil)
)

// ErrUnsupportedDSN is returned for an empty DSN or an unknown scheme.
var ErrUnsupportedDSN = errors.New("unsupported database URL")

// Backend names the kind of store a DSN selects.
type Backend string

const (
	Postgres Backend = "postgres"
	SQLite   Backend = "sqlite"
)

var otherScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// Parse tells which backend dsn selects and the location to hand it: the URL
// for PostgreSQL, the file path for SQLite.
func Parse(dsn string) (Backend, string, error) {
	switch {
	case dsn == "":
		return "", "", fmt.Errorf("%w: empty", ErrUnsupportedDSN)
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return Postgres, dsn, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		if path == "" {
			return "", "", fmt.Errorf("%w: sqlite: without a path", ErrUnsupportedDSN)
		}
		return SQLite, path, nil
	case otherScheme.MatchString(dsn):
		scheme, _, _ := strings.Cut(dsn, "://")
		return "", "", fmt.Errorf("%w: scheme %q (want postgres://, postgresql://, sqlite: or a file path)", ErrUnsupportedDSN, scheme)
	}
	return SQLite, dsn, nil
}

// Open opens the store dsn names and migrates it. The caller closes it.
func Open(ctx context.Context, dsn string) (Store, error) {
	backend, loc, err := Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("open storage: %w", err)
	}
	var s Store
	switch backend {
	case Postgres:
		s, err = postgres.Open(ctx, loc)
	case SQLite:
		if err := os.MkdirAll(filepath.Dir(loc), 0o700); err != nil {
			return nil, fmt.Errorf("open storage: %w", err)
		}
		s, err = sqlite.Open(ctx, loc)
	}
	if err != nil {
		return nil, fmt.Errorf("open storage: %w", err)
	}
	if err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open storage: %w", err)
	}
	return s, nil
}
