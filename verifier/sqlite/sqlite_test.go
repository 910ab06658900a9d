package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlite"
	"github.com/idgate/idgate/verifier/storetest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) verifier.Store {
		s := open(t, filepath.Join(t.TempDir(), "idgate.db"))
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		return s
	})
}

func TestMigrations(t *testing.T) {
	storetest.RunMigrations(t, func(t *testing.T) func(t *testing.T) storetest.Migrator {
		path := filepath.Join(t.TempDir(), "idgate.db")
		return func(t *testing.T) storetest.Migrator { return open(t, path) }
	})
}
