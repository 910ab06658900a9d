package sqlstore

// The migration runner is our own (about a hundred lines) rather than a
// library such as goose because each dialect locks the whole run its own
// way — a PostgreSQL transaction-scoped advisory lock, a SQLite BEGIN
// IMMEDIATE — and with the lock and the runner in one transaction, two
// processes starting at once can never both apply a step.
//
// Migrations are files named NNNN_name.sql, numbered from 1 without gaps:
// in migrations/<dialect> when the DDL differs (types, STRICT), in
// migrations/both when one text serves both dialects, so no statement is
// written twice. Each database records applied versions in its
// schema_migrations table.

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
)

// migration is one numbered SQL script.
type migration struct {
	Version int
	Name    string // file name, e.g. "0001_accounts.sql"
	SQL     string
}

// ErrSchemaTooNew means the database carries a migration this binary does not
// know: a newer release migrated it, and running older code against it could
// corrupt data.
var ErrSchemaTooNew = errors.New("database schema is newer than this binary")

var fileName = regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)

// loadMigrations reads every NNNN_name.sql file in dirs of fsys, sorted by
// version. It refuses stray files, duplicate numbers and gaps so a mistake in
// the migrations directories fails every test rather than a production start.
func loadMigrations(fsys fs.FS, dirs ...string) ([]migration, error) {
	var ms []migration
	for _, dir := range dirs {
		dm, err := loadDir(fsys, dir)
		if err != nil {
			return nil, err
		}
		ms = append(ms, dm...)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("load migrations: %s: expected version %04d (numbered from 1, no gaps or duplicates)", m.Name, i+1)
		}
	}
	return ms, nil
}

func loadDir(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	var ms []migration
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
		ms = append(ms, migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	return ms, nil
}

// migrationTx is what the runner needs from the migration transaction,
// opened already holding the dialect's migration lock, with the
// schema_migrations table created, and committed after applyMigrations.
type migrationTx interface {
	// Exec runs one migration script, which may hold several statements.
	Exec(ctx context.Context, script string) error
	// Applied lists the versions recorded in schema_migrations.
	Applied(ctx context.Context) ([]int, error)
	// Record notes that m has been applied.
	Record(ctx context.Context, m migration) error
}

// applyMigrations runs, in order, each migration of all that tx has not recorded, and
// returns how many it ran. A recorded version unknown to all gives
// ErrSchemaTooNew and changes nothing.
func applyMigrations(ctx context.Context, tx migrationTx, all []migration) (int, error) {
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

//go:embed migrations
var migrationFS embed.FS

// migrations are each dialect's, by dialect.id.
var migrations = [2][]migration{pgID: mustLoad("postgres"), sqliteID: mustLoad("sqlite")}

func mustLoad(dialect string) []migration {
	ms, err := loadMigrations(migrationFS, "migrations/"+dialect, "migrations/both")
	if err != nil {
		panic(err) // a build defect; every test of this package catches it
	}
	return ms
}

// Migrate brings the schema up to date. It is idempotent, and safe when
// several processes start at once: the whole run is one transaction holding
// the dialect's migration lock (PostgreSQL: an advisory lock; SQLite: BEGIN
// IMMEDIATE), so a second migrator waits for the first and then finds
// nothing left to do. DDL is transactional in both, so a failed step leaves
// the schema as it was.
func (db *DB) Migrate(ctx context.Context) error {
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if db.d.lockMigrations != "" {
			if _, err := tx.ExecContext(ctx, db.d.lockMigrations); err != nil {
				return fmt.Errorf("lock: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, db.d.schemaMigrations); err != nil {
			return err
		}
		_, err := applyMigrations(ctx, sqlMigrationTx{tx}, migrations[db.d.id])
		return err
	})
	if err != nil {
		return fmt.Errorf("migrate %s: %w", db.d.name, err)
	}
	return nil
}

// SchemaVersion is the highest applied migration, 0 on an empty database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var exists bool
	if err := db.r.QueryRowContext(ctx, db.d.hasSchemaMigrations).Scan(&exists); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v int64
	if err := db.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return int(v), nil
}

type sqlMigrationTx struct{ tx *sql.Tx }

// Exec runs a script without arguments: on PostgreSQL the simple protocol,
// so one script may hold several statements.
func (m sqlMigrationTx) Exec(ctx context.Context, script string) error {
	_, err := m.tx.ExecContext(ctx, script)
	return err
}

func (m sqlMigrationTx) Applied(ctx context.Context) ([]int, error) {
	rows, err := m.tx.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var vs []int
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		vs = append(vs, int(v))
	}
	return vs, rows.Err()
}

func (m sqlMigrationTx) Record(ctx context.Context, mg migration) error {
	_, err := m.tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, mg.Version, mg.Name)
	return err
}
