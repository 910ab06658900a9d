package verifier_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlite"
)

// sqliteAccount is a migrated SQLite store in a temp dir, closed when the
// test ends, holding one account created at the manual clock's time.
func sqliteAccount(t *testing.T, email string) (*sqlite.Store, verifier.Account, *testkit.Clock) {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "idgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	clock := testkit.NewClock()
	a, err := verifier.NewAccount(email, "correct horse battery", clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	return store, a, clock
}
