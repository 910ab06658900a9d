package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// BusyTimeout is how long an SQLite statement waits for another process's
// lock before failing with SQLITE_BUSY.
const BusyTimeout = 10 * time.Second

// openSQLite opens (creating if needed) the database file at path: a writer
// pool of one connection whose transactions begin IMMEDIATE, and a
// read-only pool.
func openSQLite(ctx context.Context, path string) (*DB, error) {
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
	// time.Time arguments are written as the schema stores times.
	params.Set("_time_integer_format", "unix_micro")
	wdsn, err := sqliteURI(path, params)
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
	rdsn, err := sqliteURI(path, params)
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
	return &DB{d: sqliteDialect, w: w, r: r}, nil
}

// sqliteURI makes an SQLite URI for path. The driver opens names as URIs,
// so the path is made absolute and escaped: '?', '#' and '%' in a file name
// must not be read as the start of the query, a fragment or an escape.
func sqliteURI(path string, params url.Values) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: params.Encode()}
	return u.String(), nil
}
