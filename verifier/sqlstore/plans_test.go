package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// planSchema is a migrated PostgreSQL schema of its own with one account,
// id account, for a test that fills its tables and reads the plans.
func planSchema(t *testing.T, account string) *DB {
	t.Helper()
	ctx := context.Background()
	s, err := openPostgres(ctx, testkit.PostgresURL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO accounts (id, email, password_hash, created_at, updated_at)
		VALUES ($1, $2, 'unused', now(), now())`, account, account+"@example.com"); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOneRowByKeyOnColdStatistics pins a finding measured on 8,400 rows: a
// table filled since its last ANALYZE (a fresh deployment, a benchmark)
// must not send a read, lock or delete of one verification through another
// index than the primary key. With deleted_at IS NULL in their WHERE,
// PostgreSQL took verifications_list (partial on it; account_id leading)
// and read every index entry of the account (128 buffers per GET at 8,400
// rows, against 5; 45-60 here at 5,000). The test fills the table in one
// statement and, without ANALYZE, runs each statement both ways a cached
// statement may be planned (custom and generic), counting the buffers its
// scan touches.
func TestOneRowByKeyOnColdStatistics(t *testing.T) {
	ctx := context.Background()
	const account = "6a1f0c3e-0000-4000-8000-000000000002"
	s := planSchema(t, account)
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
	// The row locks of every update, cancel and delete find their row the
	// same way (run in a transaction rolled back, as they lock or write).
	for _, st := range []struct {
		name string
		sql  stmt
		args []any
	}{
		{"GetVerification", getVerificationSQL, []any{id, account}},
		{"lockVerificationSQL", lockVerificationSQL, []any{id, account}},
		{"lockStatusSQL", lockStatusSQL, []any{id, account}},
		{"deleteVerificationSQL", deleteVerificationSQL, []any{id, account, time.Now()}},
	} {
		for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
			checkPlan(t, ctx, s, st.name, mode, s.sql(st.sql), st.args...)
		}
	}
	// A batch of reads (getbatch.go): three rows, NULLs filling the array
	// as runGets does.
	rows, err := s.r.QueryContext(ctx, `SELECT id::text FROM verifications ORDER BY created_at LIMIT 3 OFFSET 1000`)
	if err != nil {
		t.Fatal(err)
	}
	var three []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		three = append(three, id)
	}
	if err := rows.Err(); err != nil || len(three) != 3 {
		t.Fatalf("three IDs: %v, %v", three, err)
	}
	batch := make([]*string, getBatchMax)
	for i := range three {
		batch[i] = &three[i]
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		checkPlanRows(t, ctx, s, "getVerifications", mode, 3, s.d.getVerifications, batch)
	}
}

// checkPlan runs query under EXPLAIN ANALYZE with plan_cache_mode set to
// mode, in a transaction it rolls back, and wants verifications_pkey,
// one row and a handful of buffers.
func checkPlan(t *testing.T, ctx context.Context, s *DB, name, mode, query string, args ...any) {
	t.Helper()
	checkPlanRows(t, ctx, s, name, mode, 1, query, args...)
}

// checkPlanRows is checkPlan for a statement that reads rows rows.
func checkPlanRows(t *testing.T, ctx context.Context, s *DB, name, mode string, rows int, query string, args ...any) {
	t.Helper()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "SET LOCAL plan_cache_mode = "+mode); err != nil {
		t.Fatal(err)
	}
	{
		var out []byte
		if err := tx.QueryRowContext(ctx, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+query, args...).Scan(&out); err != nil {
			t.Fatalf("%s, %s: %v", name, mode, err)
		}
		var plans []struct{ Plan planNode }
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("%s, %s: plan %s: %v", name, mode, out, err)
		}
		// The scan of verifications, under LockRows or ModifyTable if any.
		p, _ := verificationsScan(plans[0].Plan)
		if p.Loops > 1 { // a probe per key (EXPLAIN rounds rows per loop): the join's rows
			p.Rows, p.Loops = plans[0].Plan.Rows, 1
		}
		// The scan's own buffers (an update's index writes are not the
		// search): the primary key (3 levels at most here), the heap page
		// and the webhook subquery's probe, whatever the account holds.
		hits := p.Hits + p.Reads
		if p.IndexName != "verifications_pkey" || p.Rows*p.Loops != rows || hits > 12*rows {
			t.Errorf("%s, %s: scanned %s (%s) for %d row(s), %d buffers; want verifications_pkey, %d row(s), a handful each", name, mode, p.IndexName, p.NodeType, p.Rows, hits, rows)
		}
	}
}

// verificationsScan finds the node that scans verifications (under
// LockRows, ModifyTable or a join, beside subplans on other tables).
func verificationsScan(p planNode) (planNode, bool) {
	if p.Relation == "verifications" && strings.Contains(p.NodeType, "Scan") {
		return p, true
	}
	for _, c := range p.Plans {
		if s, ok := verificationsScan(c); ok {
			return s, true
		}
	}
	return planNode{}, false
}

// planNode is what checkPlan reads of EXPLAIN's JSON (Rows per loop).
type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	IndexName string     `json:"Index Name"`
	Rows      int        `json:"Actual Rows"`
	Loops     int        `json:"Actual Loops"`
	Hits      int        `json:"Shared Hit Blocks"`
	Reads     int        `json:"Shared Read Blocks"`
	Plans     []planNode `json:"Plans"`
}

// TestUncountedHoldersProbe pins the probe of a limited create
// (uncountedHolders) to its partial index: an account whose unlimited
// past left 60,000 completed rows uncounted, none in the current period,
// statistics that know it and pages not yet all-visible (no VACUUM). As
// an EXISTS, the generic plan read all of them for its first row.
func TestUncountedHoldersProbe(t *testing.T) {
	ctx := context.Background()
	const account = "6a1f0c3e-0000-4000-8000-000000000003"
	s := planSchema(t, account)
	period := time.Now().UTC().AddDate(0, 0, -10)
	if _, err := s.w.ExecContext(ctx, `INSERT INTO verifications (id, account_id, token_hash, status, type, options,
		external_id, webhook_url, webhook_headers, message, lifetime_days, expires_at, created_at, updated_at)
		SELECT gen_random_uuid(), $1, decode(md5(i::text), 'hex'), 'completed', (ARRAY['core', 'basic', 'full'])[1 + i % 3],
			'{}', '', '', '{}', '', 14, $2::timestamptz, $2::timestamptz - (1 + i % 300) * interval '1 day', $2::timestamptz
		FROM generate_series(1, 60000) i`, account, period); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `ANALYZE verifications`); err != nil {
		t.Fatal(err)
	}
	// The fragment on its own, its parameters renumbered from 1 ($20 before
	// $2, which would match its start), prepared and run by EXECUTE so that
	// plan_cache_mode applies (EXPLAIN of a statement with bound parameters
	// plans for their values).
	probe := strings.NewReplacer("$20", "$3", "$2", "$1", "$5", "$2").Replace(`SELECT ` + uncountedHolders)
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		func() {
			tx, err := s.w.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, "SET LOCAL plan_cache_mode = "+mode); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.ExecContext(ctx, `PREPARE probe (uuid, text, timestamptz) AS `+probe); err != nil {
				t.Fatal(err)
			}
			defer tx.ExecContext(ctx, `DEALLOCATE probe`)
			var out []byte
			if err := tx.QueryRowContext(ctx, fmt.Sprintf(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE probe ('%s', 'basic', '%s')`,
				account, period.Format(time.RFC3339Nano))).Scan(&out); err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			var plans []struct{ Plan planNode }
			if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
				t.Fatalf("%s: plan %s: %v", mode, out, err)
			}
			if p := plans[0].Plan; p.Hits+p.Reads > 12 || strings.Contains(string(out), `"Seq Scan"`) {
				t.Errorf("%s: the probe read %d buffers; want verifications_uncounted and a handful: %s", mode, p.Hits+p.Reads, out)
			}
		}()
	}
}
