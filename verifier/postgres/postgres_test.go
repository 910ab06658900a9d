package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/postgres"
	"github.com/idgate/idgate/verifier/storetest"
)

func open(t *testing.T, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) verifier.Store {
		s := open(t, testkit.PostgresURL(t))
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		return s
	})
}

func TestMigrations(t *testing.T) {
	storetest.RunMigrations(t, func(t *testing.T) func(t *testing.T) storetest.Migrator {
		url := testkit.PostgresURL(t)
		return func(t *testing.T) storetest.Migrator { return open(t, url) }
	})
}

func TestOpenHidesURL(t *testing.T) {
	_, err := postgres.Open(context.Background(), "postgres://u:s3cret@[bad")
	if err == nil {
		t.Fatal("Open accepted a malformed URL")
	}
	if got := err.Error(); strings.Contains(got, "s3cret") {
		t.Fatalf("error leaks the password: %s", got)
	}
}

func TestFlowConformance(t *testing.T) {
	storetest.RunFlow(t, func(t *testing.T) storetest.FlowStore {
		s := open(t, testkit.PostgresURL(t))
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		return s
	})
}
