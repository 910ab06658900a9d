package sqlstore

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

// statementCounter counts the statements a pool sends, each one a round
// trip to the server once pgx has prepared and cached it (the default
// QueryExecModeCacheStatement; the preparing round trip of a statement's
// first use on a connection is not counted).
type statementCounter struct{ n atomic.Int64 }

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestRoundTripsPerRequest pins the database work of the two requests
// benchmarks, as the HTTP handlers do it (limits off): a bearer
// check then a create or a read. With the account cached by the
// Authenticator each is a single statement, the cost of the raw insert
// the benchmark compares against.
func TestRoundTripsPerRequest(t *testing.T) {
	ctx := context.Background()
	counter := &statementCounter{}
	s, err := openPostgres(ctx, testkit.PostgresURL(t), func(c *pgx.ConnConfig) { c.Tracer = counter })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	acct := verifier.Account{ID: "6a1f0c3e-0000-4000-8000-000000000001", Email: "bench@example.com", PasswordHash: "unused", CreatedAt: now, UpdatedAt: now}
	if err := s.CreateAccount(ctx, acct); err != nil {
		t.Fatal(err)
	}
	key := verifier.SigningKey{ID: "k1", Secret: []byte("0123456789abcdef0123456789abcdef")}
	auth, err := verifier.NewAuthenticator(s, verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour, Keys: []verifier.SigningKey{key}}, clock)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := auth.Issue(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	vs := &verifier.Verifications{Store: s, Now: clock, Plan: verifier.UnlimitedPlan}
	fields := []string{"first_names", "last_name"}
	mode := "none"
	req := verifier.CreateRequest{Options: verifier.Options{RequestedFields: &fields, EncryptionKeyMode: &mode}}

	statements := func(name string, want int64, fn func() error) {
		t.Helper()
		before := counter.n.Load()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := counter.n.Load() - before; got != want {
			t.Errorf("%s: %d statements, want %d", name, got, want)
		}
	}
	var id string
	create := func() error {
		a, err := auth.Authenticate(ctx, tok.Token)
		if err != nil {
			return err
		}
		c, err := vs.Create(ctx, a.ID, req)
		id = c.ID
		return err
	}
	get := func() error {
		a, err := auth.Authenticate(ctx, tok.Token)
		if err != nil {
			return err
		}
		_, err = vs.Get(ctx, a.ID, id)
		return err
	}
	statements("first create (account read, insert)", 2, create)
	statements("create (insert)", 1, create)
	statements("get (select)", 1, get)
}
