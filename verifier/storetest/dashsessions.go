package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

func testDashboardSessions(t *testing.T, s verifier.Store) {
	ctx := context.Background()
	newSession := func(accountID string, created time.Time) verifier.DashboardSession {
		return verifier.DashboardSession{TokenHash: randomBytes(32), AccountID: accountID, CreatedAt: created, LastSeenAt: created}
	}
	t.Run("RoundTripTouchDelete", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		sess := newSession(a.ID, base)
		if err := s.CreateDashboardSession(ctx, sess); err != nil {
			t.Fatalf("CreateDashboardSession: %v", err)
		}
		got, err := s.GetDashboardSession(ctx, sess.TokenHash)
		if err != nil || !bytes.Equal(got.TokenHash, sess.TokenHash) || got.AccountID != a.ID ||
			!sameTime(got.CreatedAt, wantTime(base)) || !sameTime(got.LastSeenAt, wantTime(base)) {
			t.Fatalf("GetDashboardSession = %+v, %v; want %+v", got, err, sess)
		}
		later := base.Add(7 * time.Minute)
		if err := s.TouchDashboardSession(ctx, sess.TokenHash, later); err != nil {
			t.Fatalf("TouchDashboardSession: %v", err)
		}
		if got, err := s.GetDashboardSession(ctx, sess.TokenHash); err != nil || !sameTime(got.LastSeenAt, wantTime(later)) ||
			!sameTime(got.CreatedAt, wantTime(base)) {
			t.Fatalf("after touch: %+v, %v", got, err)
		}
		if err := s.DeleteDashboardSession(ctx, sess.TokenHash); err != nil {
			t.Fatalf("DeleteDashboardSession: %v", err)
		}
		if _, err := s.GetDashboardSession(ctx, sess.TokenHash); !errors.Is(err, verifier.ErrNotFound) {
			t.Fatalf("deleted session: %v, want ErrNotFound", err)
		}
		if err := s.DeleteDashboardSession(ctx, sess.TokenHash); err != nil {
			t.Fatalf("deleting twice: %v", err)
		}
		if err := s.TouchDashboardSession(ctx, sess.TokenHash, later); !errors.Is(err, verifier.ErrNotFound) {
			t.Fatalf("touching a deleted session: %v, want ErrNotFound", err)
		}
	})
	t.Run("Mode", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		sess, other := newSession(a.ID, base), newSession(a.ID, base)
		for _, x := range []verifier.DashboardSession{sess, other} {
			if err := s.CreateDashboardSession(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := s.GetDashboardSession(ctx, sess.TokenHash); err != nil || got.Mode != verifier.ModeLive {
			t.Fatalf("a new session: %+v, %v; want live", got, err)
		}
		if err := s.SetDashboardSessionMode(ctx, sess.TokenHash, verifier.ModeTest); err != nil {
			t.Fatalf("SetDashboardSessionMode: %v", err)
		}
		if got, err := s.GetDashboardSession(ctx, sess.TokenHash); err != nil || got.Mode != verifier.ModeTest {
			t.Fatalf("after switching to test: %+v, %v", got, err)
		}
		// The mode is the session's: the account's other session stays live.
		if got, err := s.GetDashboardSession(ctx, other.TokenHash); err != nil || got.Mode != verifier.ModeLive {
			t.Fatalf("the other session: %+v, %v; want live", got, err)
		}
		if err := s.SetDashboardSessionMode(ctx, sess.TokenHash, verifier.ModeLive); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.GetDashboardSession(ctx, sess.TokenHash); got.Mode != verifier.ModeLive {
			t.Fatalf("after switching back: %+v", got)
		}
		if err := s.SetDashboardSessionMode(ctx, randomBytes(32), verifier.ModeTest); !errors.Is(err, verifier.ErrNotFound) {
			t.Fatalf("mode of an unknown session: %v, want ErrNotFound", err)
		}
	})
	t.Run("UnknownAccountAndDuplicate", func(t *testing.T) {
		t.Parallel()
		if err := s.CreateDashboardSession(ctx, newSession(uuid.NewString(), base)); !errors.Is(err, verifier.ErrNotFound) {
			t.Fatalf("session of an unknown account: %v, want ErrNotFound", err)
		}
		a := mustAccount(t, s)
		sess := newSession(a.ID, base)
		if err := s.CreateDashboardSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateDashboardSession(ctx, sess); !errors.Is(err, verifier.ErrConflict) {
			t.Fatalf("same token hash twice: %v, want ErrConflict", err)
		}
	})
	t.Run("PruneDeadSessions", func(t *testing.T) {
		t.Parallel()
		// Long before the other subtests' sessions (at base), which run
		// beside this one on the same store and must not be pruned by it.
		at := base.Add(-1000 * time.Hour)
		a, other := mustAccount(t, s), mustAccount(t, s)
		idle := newSession(a.ID, at)                         // last seen at at
		old := newSession(a.ID, at.Add(-13*time.Hour))       // created long ago...
		old.LastSeenAt = at.Add(time.Hour)                   // ...though seen recently
		live := newSession(a.ID, at.Add(time.Hour))          // fresh
		otherIdle := newSession(other.ID, at)                // another account's idle one goes too
		otherLive := newSession(other.ID, at.Add(time.Hour)) // and its live one stays
		for _, x := range []verifier.DashboardSession{idle, old, live, otherIdle, otherLive} {
			if err := s.CreateDashboardSession(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.PruneDashboardSessions(ctx, at.Add(30*time.Minute), at.Add(-12*time.Hour)); err != nil {
			t.Fatalf("PruneDashboardSessions: %v", err)
		}
		for _, c := range []struct {
			name string
			s    verifier.DashboardSession
			kept bool
		}{{"idle", idle, false}, {"too old", old, false}, {"live", live, true}, {"another account's idle", otherIdle, false},
			{"another account's live", otherLive, true}} {
			_, err := s.GetDashboardSession(ctx, c.s.TokenHash)
			if kept := err == nil; kept != c.kept {
				t.Errorf("%s session: kept = %v (%v), want %v", c.name, kept, err, c.kept)
			}
		}
	})
}
