package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/idgate/idgate/verifier"
)

// Migrator is a store that owns its schema, as both backends do.
type Migrator interface {
	verifier.Store
	Migrate(ctx context.Context) error
	// SchemaVersion is the highest applied migration (0 before any).
	SchemaVersion(ctx context.Context) (int, error)
}

// RunMigrations checks Migrate is idempotent and safe when several processes
// start on one database at once. newDB makes a fresh, empty database and
// returns an opener; every call of the opener is a new handle on that same
// database, standing in for a separate process.
func RunMigrations(t *testing.T, newDB func(t *testing.T) func(t *testing.T) Migrator) {
	ctx := context.Background()

	t.Run("Twice", func(t *testing.T) {
		t.Parallel()
		s := newDB(t)(t)
		if v, err := s.SchemaVersion(ctx); err != nil || v != 0 {
			t.Fatalf("SchemaVersion before Migrate = %d, %v; want 0", v, err)
		}
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		first, err := s.SchemaVersion(ctx)
		if err != nil || first < 1 {
			t.Fatalf("SchemaVersion = %d, %v; want >= 1", first, err)
		}
		a := mustAccount(t, s)
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
		if v, err := s.SchemaVersion(ctx); err != nil || v != first {
			t.Fatalf("SchemaVersion after second Migrate = %d, %v; want %d", v, err, first)
		}
		got, err := s.GetAccount(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccount after second Migrate: %v", err)
		}
		equalAccount(t, "data kept by second Migrate", got, a)
	})

	t.Run("Concurrent", func(t *testing.T) {
		t.Parallel()
		open := newDB(t)
		const n = 4
		stores := make([]Migrator, n)
		for i := range stores {
			stores[i] = open(t)
		}
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, s := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.Migrate(ctx)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("concurrent Migrate %d: %v", i, err)
			}
		}
		want, err := stores[0].SchemaVersion(ctx)
		if err != nil || want < 1 {
			t.Fatalf("SchemaVersion = %d, %v", want, err)
		}
		a := mustAccount(t, stores[0])
		for _, s := range stores[1:] {
			if v, err := s.SchemaVersion(ctx); err != nil || v != want {
				t.Errorf("SchemaVersion on another handle = %d, %v; want %d", v, err, want)
			}
			got, err := s.GetAccount(ctx, a.ID)
			if err != nil {
				t.Fatalf("GetAccount on another handle: %v", err)
			}
			equalAccount(t, "shared database", got, a)
		}
	})
}
