package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
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

// TestTwoHandlesWriteConcurrently stands in for two processes (a server and
// an `idgate account create`) writing one file: BEGIN IMMEDIATE plus the busy
// timeout must make them queue, never fail with SQLITE_BUSY or lose updates.
func TestTwoHandlesWriteConcurrently(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "idgate.db")
	a, b := open(t, path), open(t, path)
	if err := a.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	acct := verifier.Account{ID: "6f1d8e8e-8a4e-4a57-b5a6-3d0f2f0c9a01", Email: "x@example.com"}
	if err := a.CreateAccount(ctx, acct); err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	const perHandle = 25
	var wg sync.WaitGroup
	errs := make(chan error, 2*perHandle)
	for _, s := range []*sqlite.Store{a, b} {
		for range perHandle {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.UpdateAccount(ctx, acct.ID, func(x *verifier.Account) error {
					x.PasswordHash += "."
					return nil
				})
				errs <- err
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("UpdateAccount: %v", err)
		}
	}
	got, err := b.GetAccount(ctx, acct.ID)
	if err != nil {
		t.Fatalf("GetAccount: %v", err)
	}
	if len(got.PasswordHash) != 2*perHandle {
		t.Fatalf("%d of %d updates kept", len(got.PasswordHash), 2*perHandle)
	}
}

// TestPathsNeedNoEscaping: the driver opens URIs, so file names with URI
// syntax in them must still name exactly that file.
func TestPathsNeedNoEscaping(t *testing.T) {
	for _, name := range []string{"my db.db", "a#b.db", "c%20d.db", "e?f.db", "g&_txlock=deferred.db"} {
		p := filepath.Join(t.TempDir(), name)
		s := open(t, p)
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("%s: Migrate: %v", name, err)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%q: database not created at that path: %v", name, err)
		}
	}
}

func TestFlowConformance(t *testing.T) {
	storetest.RunFlow(t, func(t *testing.T) storetest.FlowStore {
		s := open(t, filepath.Join(t.TempDir(), "idgate.db"))
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		return s
	})
}
