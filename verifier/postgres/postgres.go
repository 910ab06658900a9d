// Package postgres is the production verifier.Store on PostgreSQL through a
// pgx v5 pool. Updaters lock their row with SELECT ... FOR UPDATE inside a
// transaction, so concurrent updates of one record queue instead of losing
// writes.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/idgate/idgate/verifier"
)

// Store is the PostgreSQL verifier.Store. Make one with Open.
type Store struct {
	pool  *pgxpool.Pool
	hooks webhookHooks
}

var _ verifier.Store = (*Store)(nil)

// DefaultMaxConns is the pool size when the URL sets no pool_max_conns.
// Creates are bound by commit latency (each waits for its WAL flush), and
// concurrent commits share a flush, so they need connections in flight
// more than CPU: pgx's own default, max(4, CPUs), held the lifecycle
// benchmark's creates to about a third of what 16 or 32 connections reach
// on a 2-core machine (issue #3), while reads did not suffer from 16. Mind
// the server's max_connections (100 by default) across instances.
const DefaultMaxConns = 16

// Open connects to url (postgres:// or postgresql://; pool settings such as
// pool_max_conns go in its query) and checks the server answers. It does not
// migrate; call Migrate (verifier/storage.Open does both). Statements run in
// pgx's default mode, prepared once per connection and cached
// (QueryExecModeCacheStatement), so a repeated query is one round trip.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := poolConfig(url)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	return &Store{pool: pool}, nil
}

// poolConfig parses url and applies DefaultMaxConns unless the URL sizes
// the pool itself.
func poolConfig(url string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parse error may quote the URL, password included: keep it out.
		return nil, errors.New("open postgres: invalid connection URL")
	}
	if !strings.Contains(url, "pool_max_conns=") {
		cfg.MaxConns = DefaultMaxConns
	}
	return cfg, nil
}

// Ping checks the server answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("ping postgres: %w", err)
	}
	return nil
}

// Close closes the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// inTx runs fn in a transaction and commits if fn succeeds; fn's error is
// returned as is.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) // no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// PostgreSQL error codes we turn into domain errors.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
	// codeInvalidText is raised for a malformed UUID; such an ID names no
	// record, so lookups report ErrNotFound like any unknown ID.
	codeInvalidText = "22P02"
)

// mapErr turns constraint violations and missing rows into the domain's
// coded errors.
func mapErr(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return verifier.ErrNotFound
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case codeUniqueViolation:
		return fmt.Errorf("%w: %s", verifier.ErrConflict, pe.ConstraintName)
	case codeForeignKeyViolation, codeInvalidText:
		return fmt.Errorf("%w: %s", verifier.ErrNotFound, pe.Message)
	}
	return err
}

// ts is t as stored: UTC, microseconds (PostgreSQL would round; we truncate
// so both backends agree).
func ts(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
