package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"

	"github.com/idgate/idgate/verifier/storage/migrate"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

var migrations = mustLoad()

func mustLoad() []migrate.Migration {
	ms, err := migrate.Load(migrationFS, "migrations")
	if err != nil {
		panic(err) // a build defect; every test of this package catches it
	}
	return ms
}

// Migrate brings the schema up to date. It is idempotent, and safe when
// several processes start at once: the whole run is one BEGIN IMMEDIATE
// transaction, so a second migrator waits for the first and then finds
// nothing left to do.
func (s *Store) Migrate(ctx context.Context) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    INTEGER PRIMARY KEY,
			name       TEXT NOT NULL,
			applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
		) STRICT`); err != nil {
			return err
		}
		_, err := migrate.Apply(ctx, migTx{tx}, migrations)
		return err
	})
	if err != nil {
		return fmt.Errorf("migrate sqlite: %w", err)
	}
	return nil
}

type migTx struct{ tx *sql.Tx }

func (m migTx) Exec(ctx context.Context, script string) error {
	_, err := m.tx.ExecContext(ctx, script)
	return err
}

func (m migTx) Applied(ctx context.Context) ([]int, error) {
	rows, err := m.tx.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var vs []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		vs = append(vs, v)
	}
	return vs, rows.Err()
}

func (m migTx) Record(ctx context.Context, mg migrate.Migration) error {
	_, err := m.tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, mg.Version, mg.Name)
	return err
}

// SchemaVersion is the highest applied migration, 0 on an empty database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var exists bool
	if err := s.r.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}
