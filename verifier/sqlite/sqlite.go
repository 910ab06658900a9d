// Package sqlite is the embedded verifier.Store: one database file through
// modernc.org/sqlite (pure Go, no cgo), the default when no PostgreSQL URL is
// configured.
//
// Concurrency: the file is in WAL mode, so readers never block the writer.
// All writes go through a pool of exactly one connection whose transactions
// start with BEGIN IMMEDIATE; in-process writers therefore queue in
// database/sql instead of failing with SQLITE_BUSY, and writers in other
// processes (an `idgate account create` beside a running server) wait up to
// the busy timeout for the write lock instead of failing on a lock upgrade.
//
// Times are stored as INTEGER microseconds since the Unix epoch (UTC), so
// they compare and sort as numbers.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/idgate/idgate/verifier"
)

// BusyTimeout is how long a statement waits for another process's lock
// before failing with SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// Store is the SQLite verifier.Store. Make one with Open.
type Store struct {
	w     *sql.DB // the single writer connection
	r     *sql.DB // read-only pool
	hooks webhookHooks
}

var _ verifier.Store = (*Store)(nil)

// Open opens (creating if needed) the database file at path. It does not
// migrate; call Migrate (verifier/storage.Open does both).
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("open sqlite: empty path")
	}
	params := url.Values{}
	params.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	params.Set("_foreign_keys", "1")
	params.Set("_journal_mode", "WAL")
	// NORMAL is durable across application crashes in WAL mode; only an OS
	// crash can lose the last commits, never corrupt the file.
	params.Set("_synchronous", "NORMAL")
	params.Set("_txlock", "immediate")
	wdsn, err := dsn(path, params)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	w, err := sql.Open("sqlite", wdsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	// The first connection creates the file and switches it to WAL; readers
	// opened after it find WAL already on.
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}

	params.Del("_journal_mode")
	params.Del("_txlock")
	params.Set("_query_only", "1")
	rdsn, err := dsn(path, params)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", rdsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	r.SetMaxIdleConns(max(4, runtime.GOMAXPROCS(0)))
	return &Store{w: w, r: r}, nil
}

// dsn makes an SQLite URI for path. The driver opens names as URIs, so the
// path is made absolute and escaped: '?', '#' and '%' in a file name must
// not be read as the start of the query, a fragment or an escape.
func dsn(path string, params url.Values) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: params.Encode()}
	return u.String(), nil
}

// Ping checks both pools answer.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("ping sqlite: %w", err)
	}
	return nil
}

// Close closes both pools.
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// inTx runs fn in a write transaction (BEGIN IMMEDIATE on the single writer
// connection) and commits if fn succeeds. fn's error is returned as is.
// fn must not call other Store methods: the writer is busy with it.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// mapErr turns constraint violations into the domain's coded errors.
func mapErr(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return fmt.Errorf("%w: %v", verifier.ErrConflict, err)
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return fmt.Errorf("%w: %v", verifier.ErrNotFound, err)
	}
	return err
}

// notFound turns sql.ErrNoRows into verifier.ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return verifier.ErrNotFound
	}
	return err
}

func toDB(t time.Time) int64    { return t.UnixMicro() }
func fromDB(us int64) time.Time { return time.UnixMicro(us).UTC() }
