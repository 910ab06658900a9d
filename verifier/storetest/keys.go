package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

func newKey(accountID string) verifier.IntegrationKey {
	return verifier.IntegrationKey{
		ID:               uuid.NewString(),
		AccountID:        accountID,
		Prefix:           "idgk_" + rand.Text()[:6],
		Hash:             []byte(rand.Text()), // unique, like a SHA-256 of a fresh key
		AllowedDomains:   []string{"shop.example.com", "*.example.org"},
		RateLimitPerHour: 30,
		CreatedAt:        base,
		UpdatedAt:        base,
	}
}

// mustKey puts a fresh key for accountID and returns it as stored.
func mustKey(t *testing.T, s verifier.Store, accountID string) verifier.IntegrationKey {
	t.Helper()
	k := newKey(accountID)
	if err := s.PutIntegrationKey(context.Background(), k); err != nil {
		t.Fatalf("PutIntegrationKey: %v", err)
	}
	return stored(k)
}

// stored is k as the contract says a store returns it.
func stored(k verifier.IntegrationKey) verifier.IntegrationKey {
	k.CreatedAt, k.UpdatedAt = wantTime(k.CreatedAt), wantTime(k.UpdatedAt)
	k.Hash = bytes.Clone(k.Hash)
	k.AllowedDomains = slices.Clone(k.AllowedDomains)
	return k
}

func testIntegrationKeys(t *testing.T, s verifier.Store) {
	ctx := context.Background()

	t.Run("PutAndGet", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k := mustKey(t, s, a.ID)
		got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		equalKey(t, "GetIntegrationKey", got, k)
		got, err = s.GetIntegrationKeyByHash(ctx, k.Hash)
		if err != nil {
			t.Fatalf("GetIntegrationKeyByHash: %v", err)
		}
		equalKey(t, "GetIntegrationKeyByHash", got, k)
	})

	t.Run("EmptyAllowlistRoundTrips", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k := newKey(a.ID)
		k.AllowedDomains = []string{}
		if err := s.PutIntegrationKey(ctx, k); err != nil {
			t.Fatalf("PutIntegrationKey: %v", err)
		}
		got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		if len(got.AllowedDomains) != 0 {
			t.Errorf("AllowedDomains = %q; want empty", got.AllowedDomains)
		}
	})

	t.Run("PutForMissingAccount", func(t *testing.T) {
		t.Parallel()
		err := s.PutIntegrationKey(ctx, newKey(uuid.NewString()))
		wantErr(t, "PutIntegrationKey(unknown account)", err, verifier.ErrNotFound)
	})

	t.Run("PutReplacesPreviousKey", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		old := mustKey(t, s, a.ID)
		k := newKey(a.ID)
		k.AllowedDomains = []string{"new.example.net"}
		k.RateLimitPerHour = 7
		k.CreatedAt = base.Add(time.Minute)
		if err := s.PutIntegrationKey(ctx, k); err != nil {
			t.Fatalf("PutIntegrationKey(second): %v", err)
		}
		got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		equalKey(t, "after replacement", got, stored(k))
		_, err = s.GetIntegrationKeyByHash(ctx, old.Hash)
		wantErr(t, "GetIntegrationKeyByHash(revoked)", err, verifier.ErrNotFound)
	})

	t.Run("HashTakenByAnotherAccountConflicts", func(t *testing.T) {
		t.Parallel()
		a, b := mustAccount(t, s), mustAccount(t, s)
		ka := mustKey(t, s, a.ID)
		kb := newKey(b.ID)
		kb.Hash = bytes.Clone(ka.Hash)
		wantErr(t, "PutIntegrationKey(taken hash)", s.PutIntegrationKey(ctx, kb), verifier.ErrConflict)
		got, err := s.GetIntegrationKeyByHash(ctx, ka.Hash)
		if err != nil {
			t.Fatalf("GetIntegrationKeyByHash: %v", err)
		}
		equalKey(t, "owner after conflict", got, ka)
		_, err = s.GetIntegrationKey(ctx, b.ID, verifier.ModeLive)
		wantErr(t, "GetIntegrationKey(b)", err, verifier.ErrNotFound)
	})

	t.Run("ConcurrentPutsLeaveOneKey", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		const n = 10
		keys := make([]verifier.IntegrationKey, n)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range keys {
			keys[i] = newKey(a.ID)
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = s.PutIntegrationKey(ctx, keys[i])
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Errorf("concurrent PutIntegrationKey: %v", err)
			}
		}
		cur, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		found := 0
		for _, k := range keys {
			got, err := s.GetIntegrationKeyByHash(ctx, k.Hash)
			switch {
			case err == nil:
				found++
				equalKey(t, "surviving key", got, cur)
			case !errors.Is(err, verifier.ErrNotFound):
				t.Errorf("GetIntegrationKeyByHash: %v", err)
			}
		}
		if found != 1 {
			t.Errorf("%d of %d concurrently put keys are live; want exactly 1", found, n)
		}
	})

	t.Run("TenantIsolation", func(t *testing.T) {
		t.Parallel()
		a, b := mustAccount(t, s), mustAccount(t, s)
		ka, kb := mustKey(t, s, a.ID), mustKey(t, s, b.ID)
		for _, c := range []struct {
			acct string
			want verifier.IntegrationKey
		}{{a.ID, ka}, {b.ID, kb}} {
			got, err := s.GetIntegrationKey(ctx, c.acct, verifier.ModeLive)
			if err != nil {
				t.Fatalf("GetIntegrationKey: %v", err)
			}
			equalKey(t, "own key", got, c.want)
		}
		if err := s.DeleteIntegrationKey(ctx, a.ID, verifier.ModeLive); err != nil {
			t.Fatalf("DeleteIntegrationKey: %v", err)
		}
		got, err := s.GetIntegrationKey(ctx, b.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey(b) after deleting a's: %v", err)
		}
		equalKey(t, "other account's key", got, kb)
	})

	t.Run("Delete", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k := mustKey(t, s, a.ID)
		if err := s.DeleteIntegrationKey(ctx, a.ID, verifier.ModeLive); err != nil {
			t.Fatalf("DeleteIntegrationKey: %v", err)
		}
		_, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		wantErr(t, "GetIntegrationKey(deleted)", err, verifier.ErrNotFound)
		_, err = s.GetIntegrationKeyByHash(ctx, k.Hash)
		wantErr(t, "GetIntegrationKeyByHash(deleted)", err, verifier.ErrNotFound)
		wantErr(t, "DeleteIntegrationKey(again)", s.DeleteIntegrationKey(ctx, a.ID, verifier.ModeLive), verifier.ErrNotFound)
		wantErr(t, "DeleteIntegrationKey(malformed id)", s.DeleteIntegrationKey(ctx, "x", verifier.ModeLive), verifier.ErrNotFound)
		_, err = s.GetIntegrationKey(ctx, "not-a-uuid", verifier.ModeLive)
		wantErr(t, "GetIntegrationKey(malformed id)", err, verifier.ErrNotFound)
	})

	t.Run("Update", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k := mustKey(t, s, a.ID)
		later := base.Add(24 * time.Hour)
		got, err := s.UpdateIntegrationKey(ctx, a.ID, verifier.ModeLive, func(x *verifier.IntegrationKey) error {
			equalKey(t, "updater input", *x, k)
			x.AllowedDomains = append(x.AllowedDomains, "third.example.com")
			x.RateLimitPerHour = 120
			x.UpdatedAt = later
			x.ID, x.AccountID = uuid.NewString(), uuid.NewString() // must be ignored
			return nil
		})
		if err != nil {
			t.Fatalf("UpdateIntegrationKey: %v", err)
		}
		want := stored(k)
		want.AllowedDomains = append(want.AllowedDomains, "third.example.com")
		want.RateLimitPerHour, want.UpdatedAt = 120, wantTime(later)
		equalKey(t, "UpdateIntegrationKey result", got, want)
		stored, err := s.GetIntegrationKeyByHash(ctx, k.Hash)
		if err != nil {
			t.Fatalf("GetIntegrationKeyByHash: %v", err)
		}
		equalKey(t, "after update", stored, want)
	})

	t.Run("UpdateNotFound", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		called := false
		_, err := s.UpdateIntegrationKey(ctx, a.ID, verifier.ModeLive, func(*verifier.IntegrationKey) error { called = true; return nil })
		wantErr(t, "UpdateIntegrationKey(no key)", err, verifier.ErrNotFound)
		if called {
			t.Error("UpdateIntegrationKey called fn with no key stored")
		}
	})

	t.Run("UpdaterErrorWritesNothing", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k := mustKey(t, s, a.ID)
		_, err := s.UpdateIntegrationKey(ctx, a.ID, verifier.ModeLive, func(x *verifier.IntegrationKey) error {
			x.AllowedDomains[0] = "evil.example"
			x.RateLimitPerHour = 1
			return errBoom
		})
		if err != errBoom {
			t.Fatalf("UpdateIntegrationKey returned %v; want the updater's error as is", err)
		}
		got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		equalKey(t, "after refused update", got, k)
	})

	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k := mustKey(t, s, a.ID)
		const n = 20
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.UpdateIntegrationKey(ctx, a.ID, verifier.ModeLive, func(x *verifier.IntegrationKey) error {
					x.RateLimitPerHour++
					return nil
				})
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Errorf("concurrent UpdateIntegrationKey: %v", err)
			}
		}
		got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		if got.RateLimitPerHour != k.RateLimitPerHour+n {
			t.Errorf("RateLimitPerHour = %d after %d increments from %d; updates were lost", got.RateLimitPerHour, n, k.RateLimitPerHour)
		}
	})

	t.Run("ValuesAreCopies", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		in := newKey(a.ID)
		want := stored(in)
		if err := s.PutIntegrationKey(ctx, in); err != nil {
			t.Fatalf("PutIntegrationKey: %v", err)
		}
		in.AllowedDomains[0], in.Hash[0] = "mutated.input", in.Hash[0]^0xff

		got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive)
		if err != nil {
			t.Fatalf("GetIntegrationKey: %v", err)
		}
		got.AllowedDomains[0], got.Hash[0] = "mutated.output", got.Hash[0]^0xff

		var inside *verifier.IntegrationKey
		upd, err := s.UpdateIntegrationKey(ctx, a.ID, verifier.ModeLive, func(x *verifier.IntegrationKey) error { inside = x; return nil })
		if err != nil {
			t.Fatalf("UpdateIntegrationKey: %v", err)
		}
		equalKey(t, "not changed by mutating input or earlier output", upd, want)
		inside.AllowedDomains[0], inside.Hash[0] = "mutated.updater", inside.Hash[0]^0xff
		upd.AllowedDomains[1] = "mutated.result"

		again, err := s.GetIntegrationKeyByHash(ctx, want.Hash)
		if err != nil {
			t.Fatalf("GetIntegrationKeyByHash: %v", err)
		}
		equalKey(t, "not changed by mutating updater values", again, want)
	})
}

func equalKey(t *testing.T, what string, got, want verifier.IntegrationKey) {
	t.Helper()
	if got.ID != want.ID || got.AccountID != want.AccountID || got.Prefix != want.Prefix ||
		!bytes.Equal(got.Hash, want.Hash) || !slices.Equal(got.AllowedDomains, want.AllowedDomains) ||
		got.RateLimitPerHour != want.RateLimitPerHour || got.Mode != want.Mode ||
		!sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}
