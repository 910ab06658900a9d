package sqlstore

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"
)

func TestLoadSortsAndValidates(t *testing.T) {
	good := fstest.MapFS{
		"m/0002_keys.sql":     {Data: []byte("B")},
		"m/0001_accounts.sql": {Data: []byte("A")},
	}
	ms, err := loadMigrations(good, "m")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Version != 1 || ms[0].SQL != "A" || ms[1].Name != "0002_keys.sql" {
		t.Fatalf("Load = %+v", ms)
	}

	// A version in the shared directory takes its place in each dialect's.
	split := fstest.MapFS{"m/0001_a.sql": {Data: []byte("A")}, "both/0002_b.sql": {Data: []byte("B")}, "m/0003_c.sql": {Data: []byte("C")}}
	if ms, err := loadMigrations(split, "m", "both"); err != nil || len(ms) != 3 || ms[1].SQL != "B" || ms[2].SQL != "C" {
		t.Fatalf("Load of two directories = %+v, %v", ms, err)
	}
	if _, err := loadMigrations(fstest.MapFS{"m/0001_a.sql": {}, "both/0001_a.sql": {}}, "m", "both"); err == nil {
		t.Error("Load accepted one version in both directories")
	}

	bad := map[string]fstest.MapFS{
		"gap":       {"m/0001_a.sql": {}, "m/0003_c.sql": {}},
		"duplicate": {"m/0001_a.sql": {}, "m/0001_b.sql": {}},
		"stray":     {"m/0001_a.sql": {}, "m/README.md": {}},
		"from zero": {"m/0000_a.sql": {}},
		"subdir":    {"m/0001_a.sql": {}, "m/0002_b.sql/x": {}},
	}
	for name, fsys := range bad {
		if _, err := loadMigrations(fsys, "m"); err == nil {
			t.Errorf("%s: Load accepted %v", name, fsys)
		}
	}
	if _, err := loadMigrations(good, "missing"); err == nil {
		t.Error("Load of a missing directory succeeded")
	}
}

// memTx records what the runner does, standing in for a backend transaction.
type memTx struct {
	applied []int
	ran     []string
	failOn  string
}

func (m *memTx) Exec(_ context.Context, s string) error {
	if s == m.failOn {
		return errors.New("syntax error")
	}
	m.ran = append(m.ran, s)
	return nil
}
func (m *memTx) Applied(context.Context) ([]int, error) { return m.applied, nil }
func (m *memTx) Record(_ context.Context, mg migration) error {
	m.applied = append(m.applied, mg.Version)
	return nil
}

func TestApplyRunsOnlyPending(t *testing.T) {
	all := []migration{{1, "0001_a.sql", "A"}, {2, "0002_b.sql", "B"}, {3, "0003_c.sql", "C"}}
	tx := &memTx{applied: []int{1}}
	n, err := applyMigrations(context.Background(), tx, all)
	if err != nil || n != 2 || len(tx.ran) != 2 || tx.ran[0] != "B" || tx.ran[1] != "C" {
		t.Fatalf("Apply = %d, %v; ran %v", n, err, tx.ran)
	}
	n, err = applyMigrations(context.Background(), tx, all)
	if err != nil || n != 0 || len(tx.ran) != 2 {
		t.Fatalf("second Apply = %d, %v; ran %v", n, err, tx.ran)
	}
}

func TestApplyRefusesNewerSchema(t *testing.T) {
	tx := &memTx{applied: []int{1, 2}}
	_, err := applyMigrations(context.Background(), tx, []migration{{1, "0001_a.sql", "A"}})
	if !errors.Is(err, ErrSchemaTooNew) || len(tx.ran) != 0 {
		t.Fatalf("Apply = %v, ran %v; want ErrSchemaTooNew and nothing run", err, tx.ran)
	}
}

func TestApplyStopsAtFailure(t *testing.T) {
	all := []migration{{1, "0001_a.sql", "A"}, {2, "0002_b.sql", "B"}, {3, "0003_c.sql", "C"}}
	tx := &memTx{failOn: "B"}
	n, err := applyMigrations(context.Background(), tx, all)
	if err == nil || n != 1 || len(tx.applied) != 1 {
		t.Fatalf("Apply = %d, %v; applied %v", n, err, tx.applied)
	}
}
