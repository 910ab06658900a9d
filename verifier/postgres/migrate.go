package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

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

// lockClass is the first half of the advisory lock key ("idgt"); the second
// half is the schema, so databases migrated side by side in different
// schemas (as the tests do) do not wait for each other.
const lockClass = 0x69646774

// Migrate brings the schema up to date. It is idempotent and safe when
// several processes start at once: the whole run is one transaction holding
// a transaction-scoped advisory lock, so a second migrator waits for the
// first to commit and then finds nothing left to do. PostgreSQL DDL is
// transactional, so a failed step leaves the schema as it was.
func (s *Store) Migrate(ctx context.Context) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))`, lockClass); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer PRIMARY KEY,
			name       text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return err
		}
		_, err := migrate.Apply(ctx, migTx{tx}, migrations)
		return err
	})
	if err != nil {
		return fmt.Errorf("migrate postgres: %w", err)
	}
	return nil
}

// SchemaVersion is the highest applied migration, 0 on an empty schema.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := s.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return v, nil
}

type migTx struct{ tx pgx.Tx }

func (m migTx) Exec(ctx context.Context, script string) error {
	_, err := m.tx.Exec(ctx, script) // no arguments: simple protocol, several statements allowed
	return err
}

func (m migTx) Applied(ctx context.Context) ([]int, error) {
	rows, err := m.tx.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

func (m migTx) Record(ctx context.Context, mg migrate.Migration) error {
	_, err := m.tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, mg.Version, mg.Name)
	return err
}
