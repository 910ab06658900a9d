package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/storetest"
	"github.com/idgate/idgate/verifier/webhook"
)

// dialects are the databases every suite runs on: newDSN names a fresh,
// empty database.
var dialects = []struct {
	name   string
	newDSN func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "idgate.db") }},
	{"postgres", func(t *testing.T) string { return testkit.PostgresURL(t) }},
}

// openT opens dsn unmigrated (a new process's handle) and closes it when
// the test ends.
func openT(t *testing.T, dsn string) *DB {
	t.Helper()
	db, err := open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

// migrated is openT, migrated.
func migrated(t *testing.T, dsn string) *DB {
	t.Helper()
	db := openT(t, dsn)
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	return db
}

func TestConformance(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) verifier.Store { return migrated(t, d.newDSN(t)) })
		})
	}
}

func TestMigrations(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			storetest.RunMigrations(t, func(t *testing.T) func(t *testing.T) storetest.Migrator {
				dsn := d.newDSN(t)
				return func(t *testing.T) storetest.Migrator { return openT(t, dsn) }
			})
		})
	}
}

func TestWebhooks(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			storetest.RunWebhooks(t, func(t *testing.T) storetest.WebhookStore { return migrated(t, d.newDSN(t)) })
		})
	}
}

func TestFlowConformance(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			storetest.RunFlow(t, func(t *testing.T) storetest.FlowStore { return migrated(t, d.newDSN(t)) })
		})
	}
}

// TestQueue runs the outbox suite with a stand-in verifications table, so
// enqueueing can be rolled back and checked apart from UpdateVerification.
func TestQueue(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			storetest.RunQueue(t, func(t *testing.T) storetest.QueueBackend {
				ctx := context.Background()
				dsn := d.newDSN(t)
				db := migrated(t, dsn)
				if _, err := db.w.ExecContext(ctx, `CREATE TABLE test_verifications (id text PRIMARY KEY, status text NOT NULL)`); err != nil {
					t.Fatal(err)
				}
				return storetest.QueueBackend{
					Queue: db,
					Complete: func(ctx context.Context, d webhook.Delivery, now time.Time, rollback bool) error {
						errRollback := errors.New("roll back")
						err := db.inTx(ctx, func(tx *sql.Tx) error {
							if _, err := tx.ExecContext(ctx, `INSERT INTO test_verifications (id, status) VALUES ($1, 'completed')
								ON CONFLICT (id) DO UPDATE SET status = 'completed'`, d.VerificationID); err != nil {
								return err
							}
							if err := db.enqueue(ctx, tx, d, now); err != nil {
								return err
							}
							if rollback {
								return errRollback
							}
							return nil
						})
						if errors.Is(err, errRollback) {
							return nil
						}
						return err
					},
					Delete: func(ctx context.Context, id string) error {
						return db.inTx(ctx, func(tx *sql.Tx) error {
							if _, err := tx.ExecContext(ctx, `DELETE FROM test_verifications WHERE id = $1`, id); err != nil {
								return err
							}
							return db.forget(ctx, tx, id)
						})
					},
					Status: func(ctx context.Context, id string) (string, error) {
						var st string
						err := db.r.QueryRowContext(ctx, `SELECT status FROM test_verifications WHERE id = $1`, id).Scan(&st)
						if errors.Is(err, sql.ErrNoRows) {
							return "", nil
						}
						return st, err
					},
					Reopen: func(t *testing.T) webhook.Queue { return openT(t, dsn) },
				}
			})
		})
	}
}

// TestStatementsPerDialect: every statement has a text for each dialect,
// and SQLite's keeps none of PostgreSQL's own syntax.
func TestStatementsPerDialect(t *testing.T) {
	for _, c := range []struct{ pg, lite string }{
		{`SELECT id FROM t WHERE id = $1::uuid FOR UPDATE`, `SELECT id FROM t WHERE id = $1`},
		{`SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, `SELECT 1 FROM accounts WHERE id = $1`},
		{"SELECT id FROM t\n\t\tORDER BY x LIMIT $2 FOR UPDATE SKIP LOCKED)", "SELECT id FROM t\n\t\tORDER BY x LIMIT $2)"},
		{`ORDER BY d.created_at DESC, d.seq DESC`, `ORDER BY d.created_at DESC, d.rowid DESC`},
		{`WHERE octet_length(payload) > 0 AND sequence = 1`, `WHERE length(payload) > 0 AND sequence = 1`},
	} {
		if got := q(c.pg); got[pgID] != c.pg || got[sqliteID] != c.lite {
			t.Errorf("q(%q) = %q", c.pg, got)
		}
	}
}
