package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestConnectionSettings checks the pragmas every connection must carry:
// WAL (readers never block the writer), foreign keys (cascades and
// ErrNotFound on a missing account), the busy timeout, and read-only readers.
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "idgate.db"))
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
