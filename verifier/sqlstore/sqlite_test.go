package sqlstore

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/idgate/idgate/verifier"
)

// TestConnectionSettings checks the pragmas every connection must carry:
// WAL (readers never block the writer), foreign keys (cascades and
// ErrNotFound on a missing account), the busy timeout, and read-only readers.
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	s, err := openSQLite(ctx, filepath.Join(t.TempDir(), "idgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, db := range map[string]*sql.DB{"writer": s.w, "reader": s.r} {
		var mode string
		var fk, busy int
		if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("%s journal_mode = %q, %v; want wal", name, mode, err)
		}
		if err := db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
			t.Errorf("%s foreign_keys = %d, %v; want 1", name, fk, err)
		}
		if err := db.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busy); err != nil || busy != int(BusyTimeout.Milliseconds()) {
			t.Errorf("%s busy_timeout = %d, %v; want %d", name, busy, err, BusyTimeout.Milliseconds())
		}
	}
	if _, err := s.r.ExecContext(ctx, `CREATE TABLE t (x INTEGER)`); err == nil {
		t.Error("the read pool accepted a write")
	}
	if s.w.Stats().MaxOpenConnections != 1 {
		t.Errorf("writer pool allows %d connections; want 1", s.w.Stats().MaxOpenConnections)
	}
}

// TestTwoHandlesWriteConcurrently stands in for two processes (a server and
// an `idgate account create`) writing one file: BEGIN IMMEDIATE plus the busy
// timeout must make them queue, never fail with SQLITE_BUSY or lose updates.
func TestTwoHandlesWriteConcurrently(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "idgate.db")
	a, b := openT(t, "sqlite:"+path), openT(t, "sqlite:"+path)
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
	for _, s := range []*DB{a, b} {
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
		s := openT(t, p)
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("%s: Migrate: %v", name, err)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%q: database not created at that path: %v", name, err)
		}
	}
}
