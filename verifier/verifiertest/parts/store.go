package parts

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// Open is the migrated store dsn names, closed when the test ends.
func Open(t testing.TB, dsn string) *sqlstore.DB {
	t.Helper()
	store, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// OpenSQLite is a migrated SQLite store in the test's directory.
func OpenSQLite(t testing.TB) *sqlstore.DB {
	t.Helper()
	return Open(t, "sqlite:"+filepath.Join(t.TempDir(), "idgate.db"))
}

// OpenPostgres is a migrated store in a fresh PostgreSQL schema (skipped,
// or failed under CI, when PostgreSQL is unreachable: testkit.PostgresURL).
func OpenPostgres(t testing.TB) *sqlstore.DB {
	t.Helper()
	return Open(t, testkit.PostgresURL(t))
}

// Backend is one database the verifier runs on.
type Backend struct {
	Name string
	Open func(t *testing.T) *sqlstore.DB
}

// Backends are the two databases every store-dependent behaviour is tested
// on.
var Backends = []Backend{
	{"sqlite", func(t *testing.T) *sqlstore.DB { return OpenSQLite(t) }},
	{"postgres", func(t *testing.T) *sqlstore.DB { return OpenPostgres(t) }},
}

// OnBothBackends runs fn as a parallel subtest per backend, handing it the
// backend's opener.
func OnBothBackends(t *testing.T, fn func(t *testing.T, open func(t *testing.T) *sqlstore.DB)) {
	for _, b := range Backends {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			fn(t, b.Open)
		})
	}
}
