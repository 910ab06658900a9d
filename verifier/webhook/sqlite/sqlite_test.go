package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	vsqlite "github.com/idgate/idgate/verifier/sqlite"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/sqlite"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

// openDB opens path the way the verifier store opens its writer: WAL, one
// connection, BEGIN IMMEDIATE.
func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_journal_mode", "WAL")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Opaque: path, RawQuery: q.Encode()}).String())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestQueue(t *testing.T) {
	webhooktest.Run(t, func(t *testing.T) webhooktest.Backend {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "idgate.db")
		migrate(t, path)
		db := openDB(t, path)
		// The stand-in for the verifications table.
		if _, err := db.ExecContext(ctx, `CREATE TABLE test_verifications (id TEXT PRIMARY KEY, status TEXT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		return webhooktest.Backend{
			Queue: sqlite.New(db),
			Complete: func(ctx context.Context, d webhook.Delivery, now time.Time, rollback bool) error {
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					return err
				}
				defer tx.Rollback()
				if _, err := tx.ExecContext(ctx, `INSERT INTO test_verifications (id, status) VALUES (?, 'completed')
					ON CONFLICT (id) DO UPDATE SET status = 'completed'`, d.VerificationID); err != nil {
					return err
				}
				if err := sqlite.Enqueue(ctx, tx, d, now); err != nil {
					return err
				}
				if rollback {
					return tx.Rollback()
				}
				return tx.Commit()
			},
			Delete: func(ctx context.Context, id string) error {
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					return err
				}
				defer tx.Rollback()
				if _, err := tx.ExecContext(ctx, `DELETE FROM test_verifications WHERE id = ?`, id); err != nil {
					return err
				}
				if err := sqlite.Forget(ctx, tx, id); err != nil {
					return err
				}
				return tx.Commit()
			},
			Status: func(ctx context.Context, id string) (string, error) {
				var st string
				err := db.QueryRowContext(ctx, `SELECT status FROM test_verifications WHERE id = ?`, id).Scan(&st)
				if errors.Is(err, sql.ErrNoRows) {
					return "", nil
				}
				return st, err
			},
			Reopen: func(t *testing.T) webhook.Queue { return sqlite.New(openDB(t, path)) },
		}
	})
}

// migrate creates the schema the way serve does: the verifier store's
// migrations, which hold the outbox tables.
func migrate(t *testing.T, path string) {
	t.Helper()
	st, err := vsqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
}
