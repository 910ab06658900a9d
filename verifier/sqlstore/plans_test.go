package sqlstore

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// TestGetReadsOneRowOnColdStatistics pins issue #16 part 4's finding: a
// table filled since its last ANALYZE (a fresh deployment, a benchmark)
// must not send GetVerification through another index than the primary
// key. With the owner and deleted_at in its WHERE, PostgreSQL took
// verifications_list and read every index entry of the account (128
// buffers per read at 8,400 rows, against 5). The test fills the table
// in one statement and, without ANALYZE, plans the read both ways a
// cached statement may run (custom and generic), counting the buffers it
// touches.
func TestGetReadsOneRowOnColdStatistics(t *testing.T) {
	ctx := context.Background()
	s, err := openPostgres(ctx, testkit.PostgresURL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	const account = "6a1f0c3e-0000-4000-8000-000000000002"
	if _, err := s.w.ExecContext(ctx, `INSERT INTO accounts (id, email, password_hash, created_at, updated_at)
		VALUES ($1, 'plans@example.com', 'unused', now(), now())`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO verifications (id, account_id, token_hash, status, type, options,
		external_id, webhook_url, webhook_headers, message, lifetime_days, expires_at, created_at, updated_at)
		SELECT gen_random_uuid(), $1, decode(md5(i::text), 'hex'), 'pending', 'basic', '{}', '', '', '{}', '', 14,
			now() + interval '14 days', now() - i * interval '1 second', now()
		FROM generate_series(1, 5000) i`, account); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := s.r.QueryRowContext(ctx, `SELECT id::text FROM verifications ORDER BY created_at LIMIT 1 OFFSET 2500`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		if _, err := conn.ExecContext(ctx, "SET plan_cache_mode = "+mode); err != nil {
			t.Fatal(err)
		}
		var out []byte
		if err := conn.QueryRowContext(ctx, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+s.sql(getVerificationSQL), id, account).Scan(&out); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		var plans []struct {
			Plan struct {
				NodeType  string `json:"Node Type"`
				IndexName string `json:"Index Name"`
				Rows      int    `json:"Actual Rows"`
				Hits      int    `json:"Shared Hit Blocks"`
				Reads     int    `json:"Shared Read Blocks"`
			}
		}
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("%s: plan %s: %v", mode, out, err)
		}
		p := plans[0].Plan
		// The primary key (3 levels at most here), the heap page and the
		// webhook subquery's probe: a handful, whatever the account holds.
		if p.IndexName != "verifications_pkey" || p.Rows != 1 || p.Hits+p.Reads > 12 {
			t.Errorf("%s: GetVerification scanned %s (%s) for %d row(s), %d buffers; want verifications_pkey, 1 row, a handful", mode, p.IndexName, p.NodeType, p.Rows, p.Hits+p.Reads)
		}
	}
}
