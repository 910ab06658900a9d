package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// DefaultMaxConns is the PostgreSQL pool size when the URL sets no
// pool_max_conns. Creates are bound by commit latency (each waits for its
// WAL flush), and concurrent commits share a flush, so they need
// connections in flight more than CPU: max(4, CPUs) held the lifecycle
// benchmark's creates to about a third of what 16 or 32 connections reach
// on a 2-core machine, while reads did not suffer from 16. Mind
// the server's max_connections (100 by default) across instances.
const DefaultMaxConns = 16

// openPostgres connects to url and checks the server answers. Statements
// run in pgx's default mode, prepared once per connection and cached
// (QueryExecModeCacheStatement), so a repeated query is one round trip.
// tweak, if set, edits the connection settings (tests count statements).
func openPostgres(ctx context.Context, url string, tweak func(*pgx.ConnConfig)) (*DB, error) {
	cfg, maxConns, err := postgresConfig(url)
	if err != nil {
		return nil, err
	}
	if tweak != nil {
		tweak(cfg)
	}
	pool := stdlib.OpenDB(*cfg)
	pool.SetMaxOpenConns(maxConns)
	pool.SetMaxIdleConns(maxConns)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	db := &DB{d: postgresDialect, w: pool, r: pool}
	db.gets = &getBatcher{run: db.runGets}
	return db, nil
}

// postgresConfig parses url (pgxpool's syntax, so pool_max_conns is
// understood and not sent to the server) and sizes the pool: the URL's
// pool_max_conns, else DefaultMaxConns.
func postgresConfig(url string) (*pgx.ConnConfig, int, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parse error may quote the URL, password included: keep it out.
		return nil, 0, errors.New("open postgres: invalid connection URL")
	}
	maxConns := DefaultMaxConns
	if strings.Contains(url, "pool_max_conns=") {
		maxConns = int(cfg.MaxConns)
	}
	return cfg.ConnConfig, maxConns, nil
}
