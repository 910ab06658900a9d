package verifier_test

import (
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// openStore is the migrated store dsn names, closed when the test ends.
func openStore(t testing.TB, dsn string) *sqlstore.DB { return parts.Open(t, dsn) }

// openSQLiteStore is a migrated SQLite store in a temp dir and that dir.
func openSQLiteStore(t testing.TB) (*sqlstore.DB, string) {
	t.Helper()
	dir := t.TempDir()
	return openStore(t, "sqlite:"+filepath.Join(dir, "idgate.db")), dir
}

// sqliteStore is openSQLiteStore without the dir.
func sqliteStore(t *testing.T) verifier.Store {
	t.Helper()
	st, _ := openSQLiteStore(t)
	return st
}

// sqliteAccount is a migrated SQLite store in a temp dir, closed when the
// test ends, holding one account created at the manual clock's time.
func sqliteAccount(t *testing.T, email string) (*sqlstore.DB, verifier.Account, *testkit.Clock) {
	t.Helper()
	store, _ := openSQLiteStore(t)
	clock := testkit.NewClock()
	return store, parts.Account(t, store, email, "correct horse battery", clock.Now()), clock
}
