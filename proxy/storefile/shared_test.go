package storefile

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/proxy"
)

// Two processes on one file (two proxy instances, or the proxy and
// store add): a store one adds, changes or removes is what the other's
// next lookup sees, with no restart; an app store waiting for its link
// round-trips without the missing secrets.
func TestStoresSeeEachOthersChanges(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stores.json")
	key := seal.Ephemeral()
	a, err := Load(path, key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(path, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Store(ctx, "aaa"); !errors.Is(err, proxy.ErrUnknownStore) {
		t.Fatalf("before: %v", err)
	}
	if err := a.Put(ctx, store("aaa")); err != nil {
		t.Fatal(err)
	}
	if st, err := b.Store(ctx, "aaa"); err != nil || st.AccessToken != "token-aaa" {
		t.Fatalf("b after a's put: %+v, %v", st, err)
	}
	changed := store("aaa")
	changed.AccessToken = "rotated"
	if err := b.Put(ctx, changed); err != nil {
		t.Fatal(err)
	}
	if st, err := a.Store(ctx, "aaa"); err != nil || st.AccessToken != "rotated" {
		t.Fatalf("a after b's change: %+v, %v", st, err)
	}
	pending := store("ppp")
	pending.AppInstalled, pending.IntegrationKey, pending.WebhookSecret, pending.Users = true, "", "", []int64{1, 7}
	if err := a.Put(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if st, err := b.Store(ctx, "ppp"); err != nil || st.Linked() || !st.HasUser(7) || st.AccessToken != "token-ppp" {
		t.Fatalf("unlinked app store: %+v, %v", st, err)
	}
	if err := a.Delete(ctx, "aaa"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Store(ctx, "aaa"); !errors.Is(err, proxy.ErrUnknownStore) {
		t.Fatalf("b after a's delete: %v", err)
	}
	if err := b.Delete(ctx, "aaa"); !errors.Is(err, proxy.ErrUnknownStore) {
		t.Fatalf("second delete: %v", err)
	}
}

// Writers on one file never lose each other's stores (the lock).
func TestConcurrentPutsKeepEveryStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stores.json")
	key := seal.Ephemeral()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Load(path, key)
			if err == nil {
				err = s.Put(ctx, store(fmt.Sprintf("s%d", i)))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := Load(path, key)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := s.List(); err != nil || len(list) != 16 {
		t.Fatalf("%d stores, %v; want 16", len(list), err)
	}
}

// Updates from two processes at once (a user added on one instance,
// settings saved on another) each apply to the store as saved, so none is
// lost; a change that fails saves nothing, and an unknown store is said.
func TestConcurrentUpdatesKeepEveryChange(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "stores.json")
	key := seal.Ephemeral()
	a, _ := Load(path, key)
	b, _ := Load(path, key)
	if err := a.Put(ctx, store("aaa")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			if _, err := s.Update(ctx, "aaa", func(st *proxy.Store) error {
				st.Users = append(st.Users, int64(100+i))
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	st, err := b.Store(ctx, "aaa")
	if err != nil || len(st.Users) != 20 {
		t.Fatalf("users after 20 concurrent adds: %v, %v", st.Users, err)
	}
	if _, err := a.Update(ctx, "aaa", func(st *proxy.Store) error {
		st.AccessToken = "changed"
		return errors.New("no")
	}); err == nil {
		t.Fatal("a failing change was not reported")
	}
	if st, _ := b.Store(ctx, "aaa"); st.AccessToken != "token-aaa" {
		t.Fatalf("a failing change was saved: %s", st.AccessToken)
	}
	if _, err := a.Update(ctx, "zzz", func(*proxy.Store) error { return nil }); !errors.Is(err, proxy.ErrUnknownStore) {
		t.Fatalf("unknown store: %v", err)
	}
}
