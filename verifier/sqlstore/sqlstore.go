package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/webhook"
)

// DB is the store. Make one with Open.
type DB struct {
	d dialect
	w *sql.DB // writes and transactions (SQLite: the single writer connection)
	r *sql.DB // reads outside transactions (PostgreSQL: the same pool as w)
	// wake is called after every commit that enqueued a webhook delivery.
	wake atomic.Pointer[func()]
	// stripeDraws counts the quota claims' draws (drawStripe).
	stripeDraws atomic.Uint32
	// gets batches GetVerification calls (getbatch.go); nil on SQLite.
	gets *getBatcher
}

var (
	_ verifier.Store = (*DB)(nil)
	_ webhook.Queue  = (*DB)(nil)
)

// Open opens the database dsn names (see the package comment) and brings its
// schema up to date. The caller closes it.
func Open(ctx context.Context, dsn string) (*DB, error) {
	db, err := open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open storage: %w", err)
	}
	return db, nil
}

// open opens without migrating (the migration tests start from an empty
// database).
func open(ctx context.Context, dsn string) (*DB, error) {
	backend, loc, err := parseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("open storage: %w", err)
	}
	var db *DB
	switch backend {
	case kindPostgres:
		db, err = openPostgres(ctx, loc, nil)
	case kindSQLite:
		if err := os.MkdirAll(filepath.Dir(loc), 0o700); err != nil {
			return nil, fmt.Errorf("open storage: %w", err)
		}
		db, err = openSQLite(ctx, loc)
	}
	if err != nil {
		return nil, fmt.Errorf("open storage: %w", err)
	}
	return db, nil
}

// Ping checks the database answers (both pools on SQLite).
func (db *DB) Ping(ctx context.Context) error {
	if err := db.w.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w", db.d.name, err)
	}
	if err := db.r.PingContext(ctx); err != nil {
		return fmt.Errorf("ping %s: %w", db.d.name, err)
	}
	return nil
}

// Close closes the pools.
func (db *DB) Close() error {
	if db.r == db.w {
		return db.w.Close()
	}
	return errors.Join(db.r.Close(), db.w.Close())
}

// OnWebhookEnqueued sets fn to be called after every commit that enqueued a
// webhook delivery (the worker's Wake, so the first attempt does not wait
// for its next poll). Enqueueing itself needs nothing: the outbox is part of
// the schema. Safe to call at any time; nil turns it off.
func (db *DB) OnWebhookEnqueued(fn func()) {
	if fn == nil {
		db.wake.Store(nil)
		return
	}
	db.wake.Store(&fn)
}

func (db *DB) webhookEnqueued() {
	if fn := db.wake.Load(); fn != nil {
		(*fn)()
	}
}

// sql is st's text in this store's dialect.
func (db *DB) sql(st stmt) string { return st[db.d.id] }

// inTx runs fn in a write transaction and commits if fn succeeds; fn's error
// is returned as is. On SQLite fn must not call other methods of db: the
// writer connection is busy with it.
func (db *DB) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
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

// mapErr turns a missing row, a broken uniqueness rule and a reference to
// nothing into the domain's coded errors, whichever the driver.
func mapErr(err error) error {
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return verifier.ErrNotFound
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%w: %s", verifier.ErrConflict, pe.ConstraintName)
		case "23503", "22P02": // foreign_key_violation; invalid_text_representation: a malformed UUID names no record
			return fmt.Errorf("%w: %s", verifier.ErrNotFound, pe.Message)
		}
		return err
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %v", verifier.ErrConflict, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return fmt.Errorf("%w: %v", verifier.ErrNotFound, err)
		}
	}
	return err
}

// ts is t as stored: UTC, truncated to microseconds (PostgreSQL would round).
func ts(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// nullTime is t as a nullable column: NULL for the zero time.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ts(t)
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// scanTime reads a time column of either dialect into *t: timestamptz
// (time.Time) or INTEGER microseconds (int64); NULL is the zero time. A
// sql.Scanner is handed the driver's value as is, so reading needs no
// reflection.
type scanTime struct{ t *time.Time }

func (s scanTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.t = time.Time{}
	case int64:
		*s.t = time.UnixMicro(v).UTC()
	case time.Time:
		*s.t = ts(v)
	default:
		return fmt.Errorf("scan time: unexpected %T", src)
	}
	return nil
}

// scanInt reads an integer column into *n without database/sql's
// conversion through a string.
type scanInt struct{ n *int }

func (s scanInt) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("scan integer: unexpected %T", src)
	}
	*s.n = int(v)
	return nil
}

// rowsAffected is an Exec's count of changed rows.
func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
