package sqlstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		dsn     string
		backend dbKind
		loc     string
	}{
		{"postgres://u@h:5432/db?sslmode=disable", kindPostgres, "postgres://u@h:5432/db?sslmode=disable"},
		{"postgresql://h/db", kindPostgres, "postgresql://h/db"},
		{"sqlite:var/idgate.db", kindSQLite, "var/idgate.db"},
		{"sqlite://var/idgate.db", kindSQLite, "var/idgate.db"},
		{"sqlite:///srv/idgate.db", kindSQLite, "/srv/idgate.db"},
		{"var/idgate.db", kindSQLite, "var/idgate.db"},
		{"/srv/idgate.db", kindSQLite, "/srv/idgate.db"},
		{"idgate.db", kindSQLite, "idgate.db"},
	} {
		b, loc, err := parseDSN(c.dsn)
		if err != nil || b != c.backend || loc != c.loc {
			t.Errorf("parseDSN(%q) = %q, %q, %v; want %q, %q", c.dsn, b, loc, err, c.backend, c.loc)
		}
	}
	for _, dsn := range []string{"", "sqlite:", "sqlite://", "mysql://h/db", "redis://127.0.0.1:6379", "file://x.db"} {
		if b, loc, err := parseDSN(dsn); !errors.Is(err, ErrUnsupportedDSN) {
			t.Errorf("parseDSN(%q) = %q, %q, %v; want ErrUnsupportedDSN", dsn, b, loc, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"postgres://h/db", "sqlite:x.db", "sqlite:///a/b", "x.db", "", "a://b", "sqlite:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		b, loc, err := parseDSN(dsn)
		if err != nil {
			if !errors.Is(err, ErrUnsupportedDSN) {
				t.Fatalf("parseDSN(%q): uncoded error %v", dsn, err)
			}
			return
		}
		if (b != kindPostgres && b != kindSQLite) || loc == "" {
			t.Fatalf("parseDSN(%q) = %q, %q", dsn, b, loc)
		}
	})
}

// works checks s is migrated and usable.
func works(t *testing.T, s *DB) {
	t.Helper()
	ctx := context.Background()
	v, err := s.SchemaVersion(ctx)
	if err != nil || v < 1 {
		t.Fatalf("SchemaVersion = %d, %v; want migrated", v, err)
	}
	a := verifier.Account{ID: "0c4d3b0e-5d0c-4f57-9a53-8f1e0c2b8f11", Email: "a@example.com", PasswordHash: "h",
		CreatedAt: time.Unix(0, 0), UpdatedAt: time.Unix(0, 0)}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	if got, err := s.GetAccountByEmail(ctx, a.Email); err != nil || got.ID != a.ID {
		t.Fatalf("GetAccountByEmail = %+v, %v", got, err)
	}
}

func TestOpenSQLiteCreatesDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, dsn := range []string{
		filepath.Join(dir, "plain", "nested", "idgate.db"),
		"sqlite:" + filepath.Join(dir, "prefixed", "idgate.db"),
	} {
		s, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatalf("Open(%q): %v", dsn, err)
		}
		works(t, s)
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "plain", "nested", "idgate.db")); err != nil {
		t.Fatalf("database file not created: %v", err)
	}
	// Reopening an existing, migrated file is the ordinary restart.
	s, err := Open(context.Background(), filepath.Join(dir, "plain", "nested", "idgate.db"))
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if _, err := s.GetAccountByEmail(context.Background(), "a@example.com"); err != nil {
		t.Fatalf("data lost on reopen: %v", err)
	}
}

func TestOpenPostgres(t *testing.T) {
	s, err := Open(context.Background(), testkit.PostgresURL(t))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	works(t, s)
}

func TestOpenRefusesUnknownScheme(t *testing.T) {
	_, err := Open(context.Background(), "mysql://root@localhost/idgate")
	if !errors.Is(err, ErrUnsupportedDSN) {
		t.Fatalf("Open(mysql://) = %v; want ErrUnsupportedDSN", err)
	}
}
