package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/idgate/idgate/internal/testkit"
	vpostgres "github.com/idgate/idgate/verifier/postgres"
	"github.com/idgate/idgate/verifier/webhook"
	"github.com/idgate/idgate/verifier/webhook/postgres"
	"github.com/idgate/idgate/verifier/webhook/webhooktest"
)

func openPool(t *testing.T, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

func TestQueue(t *testing.T) {
	webhooktest.Run(t, func(t *testing.T) webhooktest.Backend {
		ctx := context.Background()
		dsn := testkit.PostgresURL(t)
		// The schema the way serve creates it: the verifier store's
		// migrations, which hold the outbox tables.
		st, err := vpostgres.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		pool := openPool(t, dsn)
		// The stand-in for the verifications table.
		if _, err := pool.Exec(ctx, `CREATE TABLE test_verifications (id text PRIMARY KEY, status text NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		return webhooktest.Backend{
			Queue: postgres.New(pool),
			Complete: func(ctx context.Context, d webhook.Delivery, now time.Time, rollback bool) error {
				tx, err := pool.Begin(ctx)
				if err != nil {
					return err
				}
				defer tx.Rollback(ctx)
				if _, err := tx.Exec(ctx, `INSERT INTO test_verifications (id, status) VALUES ($1, 'completed')
					ON CONFLICT (id) DO UPDATE SET status = 'completed'`, d.VerificationID); err != nil {
					return err
				}
				if err := postgres.Enqueue(ctx, tx, d, now); err != nil {
					return err
				}
				if rollback {
					return tx.Rollback(ctx)
				}
				return tx.Commit(ctx)
			},
			Delete: func(ctx context.Context, id string) error {
				return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
					if _, err := tx.Exec(ctx, `DELETE FROM test_verifications WHERE id = $1`, id); err != nil {
						return err
					}
					return postgres.Forget(ctx, tx, id)
				})
			},
			Status: func(ctx context.Context, id string) (string, error) {
				var st string
				err := pool.QueryRow(ctx, `SELECT status FROM test_verifications WHERE id = $1`, id).Scan(&st)
				if errors.Is(err, pgx.ErrNoRows) {
					return "", nil
				}
				return st, err
			},
			Reopen: func(t *testing.T) webhook.Queue { return postgres.New(openPool(t, dsn)) },
		}
	})
}
