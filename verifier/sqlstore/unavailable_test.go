package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

// TestUnavailable checks the outage classification on real failures: a
// server nobody listens for, a session the server ends under us (what a
// restart does to every open connection), against the errors that are the
// request's or the data's and must stay what they are.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()

	_, err := Open(ctx, "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2")
	if err == nil || !Unavailable(err) {
		t.Errorf("Open on a port nobody listens on: %v; want an outage", err)
	}

	db, err := Open(ctx, testkit.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var pid int
	if err := conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.ExecContext(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	var one int
	err = conn.QueryRowContext(ctx, "SELECT 1").Scan(&one)
	if err == nil || !Unavailable(err) {
		t.Errorf("a query on a session the server terminated: %v; want an outage", err)
	}

	acct, err := verifier.NewAccount(fmt.Sprintf("u%d@example.com", time.Now().UnixNano()), "correct horse battery", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	dup := db.CreateAccount(ctx, acct)
	_, missing := db.GetVerification(ctx, acct.ID, "00000000-0000-0000-0000-000000000000")
	if dup == nil || missing == nil {
		t.Fatalf("a duplicate account (%v) and a missing verification (%v) should fail", dup, missing)
	}
	for name, err := range map[string]error{
		"unique violation": dup, "no such row": missing, "cancelled": context.Canceled,
		"nil": nil, "other": errors.New("boom"),
	} {
		if Unavailable(err) {
			t.Errorf("%s (%v) classified as an outage", name, err)
		}
	}
}
