package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

var errBoom = errors.New("updater refused")

func testAccounts(t *testing.T, s verifier.Store) {
	ctx := context.Background()

	t.Run("CreateAndGet", func(t *testing.T) {
		t.Parallel()
		want := createAndGet(t, s, newAccount(), "GetAccount")
		got, err := s.GetAccountByEmail(ctx, want.Email)
		if err != nil {
			t.Fatalf("GetAccountByEmail: %v", err)
		}
		equalAccount(t, "GetAccountByEmail", got, want)
	})

	t.Run("TimesAreUTCMicroseconds", func(t *testing.T) {
		t.Parallel()
		for _, at := range []time.Time{
			time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
			time.Date(2099, 12, 31, 23, 59, 59, 999999999, time.FixedZone("x", -7*3600)),
			time.Unix(1_800_000_000, 1_001).In(time.Local),
		} {
			a := newAccount()
			a.CreatedAt, a.UpdatedAt = at, at.Add(time.Nanosecond)
			if err := s.CreateAccount(ctx, a); err != nil {
				t.Fatalf("CreateAccount(%v): %v", at, err)
			}
			got, err := s.GetAccount(ctx, a.ID)
			if err != nil {
				t.Fatalf("GetAccount: %v", err)
			}
			for _, tt := range []struct{ got, in time.Time }{{got.CreatedAt, a.CreatedAt}, {got.UpdatedAt, a.UpdatedAt}} {
				if tt.got.Location() != time.UTC || !tt.got.Equal(wantTime(tt.in)) {
					t.Errorf("stored %v, read %v (%v); want %v UTC", tt.in, tt.got, tt.got.Location(), wantTime(tt.in))
				}
			}
		}
	})

	t.Run("DuplicateEmailOrIDConflicts", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		dup := newAccount()
		dup.Email = a.Email
		wantErr(t, "CreateAccount(same email)", s.CreateAccount(ctx, dup), verifier.ErrConflict)
		dup = newAccount()
		dup.ID = a.ID
		wantErr(t, "CreateAccount(same id)", s.CreateAccount(ctx, dup), verifier.ErrConflict)
		got, err := s.GetAccount(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		equalAccount(t, "after conflicts", got, a)
	})

	t.Run("NotFound", func(t *testing.T) {
		t.Parallel()
		_, err := s.GetAccount(ctx, uuid.NewString())
		wantErr(t, "GetAccount(unknown)", err, verifier.ErrNotFound)
		_, err = s.GetAccount(ctx, "not-a-uuid")
		wantErr(t, "GetAccount(malformed id)", err, verifier.ErrNotFound)
		_, err = s.GetAccountByEmail(ctx, "nobody-"+uuid.NewString()+"@example.com")
		wantErr(t, "GetAccountByEmail(unknown)", err, verifier.ErrNotFound)
		called := false
		_, err = s.UpdateAccount(ctx, uuid.NewString(), func(*verifier.Account) error { called = true; return nil })
		wantErr(t, "UpdateAccount(unknown)", err, verifier.ErrNotFound)
		if called {
			t.Error("UpdateAccount called fn for a missing account")
		}
	})

	t.Run("Update", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		later := base.Add(48 * time.Hour)
		got, err := s.UpdateAccount(ctx, a.ID, func(x *verifier.Account) error {
			equalAccount(t, "updater input", *x, a)
			x.PasswordHash = "new-hash"
			x.Email = "renamed-" + a.Email
			x.UpdatedAt = later
			x.ID = uuid.NewString() // must be ignored
			return nil
		})
		if err != nil {
			t.Fatalf("UpdateAccount: %v", err)
		}
		want := a
		want.PasswordHash, want.Email, want.UpdatedAt = "new-hash", "renamed-"+a.Email, wantTime(later)
		equalAccount(t, "UpdateAccount result", got, want)
		stored, err := s.GetAccount(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		equalAccount(t, "after UpdateAccount", stored, want)
		if _, err := s.GetAccountByEmail(ctx, a.Email); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("old e-mail still found after rename: %v", err)
		}
	})

	t.Run("UpdaterErrorWritesNothing", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		_, err := s.UpdateAccount(ctx, a.ID, func(x *verifier.Account) error {
			x.PasswordHash = "should not be written"
			return errBoom
		})
		if err != errBoom {
			t.Fatalf("UpdateAccount returned %v; want the updater's error as is", err)
		}
		got, err := s.GetAccount(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		equalAccount(t, "after refused update", got, a)
	})

	t.Run("UpdateToTakenEmailConflicts", func(t *testing.T) {
		t.Parallel()
		a, b := mustAccount(t, s), mustAccount(t, s)
		_, err := s.UpdateAccount(ctx, b.ID, func(x *verifier.Account) error { x.Email = a.Email; return nil })
		wantErr(t, "UpdateAccount(taken email)", err, verifier.ErrConflict)
		got, err := s.GetAccount(ctx, b.ID)
		if err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		equalAccount(t, "after conflicting update", got, b)
	})

	t.Run("ConcurrentUpdatesLoseNothing", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		const n = 20
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.UpdateAccount(ctx, a.ID, func(x *verifier.Account) error {
					x.PasswordHash += fmt.Sprintf("|%02d", i)
					return nil
				})
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("concurrent UpdateAccount: %v", err)
			}
		}
		got, err := s.GetAccount(ctx, a.ID)
		if err != nil {
			t.Fatalf("GetAccount: %v", err)
		}
		suffix := strings.TrimPrefix(got.PasswordHash, a.PasswordHash)
		for i := range n {
			if c := strings.Count(suffix, fmt.Sprintf("|%02d", i)); c != 1 {
				t.Errorf("update %d applied %d times in %q; want exactly once", i, c, suffix)
			}
		}
	})
}

func equalAccount(t *testing.T, what string, got, want verifier.Account) {
	t.Helper()
	if got.ID != want.ID || got.Email != want.Email || got.PasswordHash != want.PasswordHash ||
		!sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) || got.Branding != want.Branding {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// sameTime is equality including the location being UTC, as the contract
// promises.
func sameTime(got, want time.Time) bool {
	return got.Equal(want) && got.Location() == time.UTC
}

func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v; want errors.Is %v", what, err, target)
	}
}
