// Package migrate is the small versioned-migration runner shared by the
// sqlite and postgres stores. We keep our own (about a hundred lines) instead
// of a library such as goose because each backend needs its own locking
// around the whole run — a PostgreSQL transaction-scoped advisory lock, a
// SQLite BEGIN IMMEDIATE — and with the lock and the runner in one
// transaction, two processes starting at once can never both apply a step.
//
// Migrations are files named NNNN_name.sql in an embedded directory, numbered
// from 1 without gaps. Each backend records applied versions in its
// schema_migrations table.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
)

// Migration is one numbered SQL script.
type Migration struct {
	Version int
	Name    string // file name, e.g. "0001_accounts.sql"
	SQL     string
}

// ErrSchemaTooNew means the database carries a migration this binary does not
// know: a newer release migrated it, and running older code against it could
// corrupt data.
var ErrSchemaTooNew = errors.New("database schema is newer than this binary")

var fileName = regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)

// Load reads every NNNN_name.sql file in dir of fsys, sorted by version. It
// refuses stray files, duplicate numbers and gaps so a mistake in the
// migrations directory fails every test rather than a production start.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		m := fileName.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			return nil, fmt.Errorf("load migrations: unexpected entry %q (want NNNN_name.sql)", e.Name())
		}
		v, _ := strconv.Atoi(m[1]) // four digits: cannot fail
		body, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("load migrations: %w", err)
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("load migrations: %s: expected version %04d (numbered from 1, no gaps or duplicates)", m.Name, i+1)
		}
	}
	return ms, nil
}

// Tx is what the runner needs from a backend's migration transaction. The
// backend opens it already holding its migration lock, with the
// schema_migrations table created, and commits it after Apply.
type Tx interface {
	// Exec runs one migration script, which may hold several statements.
	Exec(ctx context.Context, script string) error
	// Applied lists the versions recorded in schema_migrations.
	Applied(ctx context.Context) ([]int, error)
	// Record notes that m has been applied.
	Record(ctx context.Context, m Migration) error
}

// Apply runs, in order, each migration of all that tx has not recorded, and
// returns how many it ran. A recorded version unknown to all gives
// ErrSchemaTooNew and changes nothing.
func Apply(ctx context.Context, tx Tx, all []Migration) (int, error) {
	applied, err := tx.Applied(ctx)
	if err != nil {
		return 0, fmt.Errorf("read applied migrations: %w", err)
	}
	done := make(map[int]bool, len(applied))
	for _, v := range applied {
		if v < 1 || v > len(all) {
			return 0, fmt.Errorf("version %d recorded, this binary knows 1..%d: %w", v, len(all), ErrSchemaTooNew)
		}
		done[v] = true
	}
	n := 0
	for _, m := range all {
		if done[m.Version] {
			continue
		}
		if err := tx.Exec(ctx, m.SQL); err != nil {
			return n, fmt.Errorf("apply %s: %w", m.Name, err)
		}
		if err := tx.Record(ctx, m); err != nil {
			return n, fmt.Errorf("record %s: %w", m.Name, err)
		}
		n++
	}
	return n, nil
}
