package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier"
)

// testModes checks the store's side of test mode (docs/test-mode.md): test
// verifications are stored and read back as test, never use an allowance
// nor appear in quota usage, are listed only under their mode; an account
// has one integration key per mode.
func testModes(t *testing.T, s verifier.Store) {
	ctx := context.Background()

	t.Run("KeyPerMode", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		live := mustKey(t, s, a.ID)
		tk := newKey(a.ID)
		tk.Mode, tk.Prefix, tk.AllowedDomains = verifier.ModeTest, "idgk_test_abcdefg", []string{"localhost:8082"}
		if err := s.PutIntegrationKey(ctx, tk); err != nil {
			t.Fatalf("PutIntegrationKey(test): %v", err)
		}
		tk = stored(tk)
		for _, c := range []struct {
			mode verifier.Mode
			want verifier.IntegrationKey
		}{{verifier.ModeLive, live}, {verifier.ModeTest, tk}} {
			got, err := s.GetIntegrationKey(ctx, a.ID, c.mode)
			if err != nil {
				t.Fatalf("GetIntegrationKey(%s): %v", c.mode, err)
			}
			equalKey(t, "key of mode "+c.mode.String(), got, c.want)
			byHash, err := s.GetIntegrationKeyByHash(ctx, c.want.Hash)
			if err != nil {
				t.Fatalf("GetIntegrationKeyByHash(%s): %v", c.mode, err)
			}
			equalKey(t, "by hash, mode "+c.mode.String(), byHash, c.want)
		}
		// A new test key replaces the test key only.
		tk2 := newKey(a.ID)
		tk2.Mode = verifier.ModeTest
		if err := s.PutIntegrationKey(ctx, tk2); err != nil {
			t.Fatalf("PutIntegrationKey(second test key): %v", err)
		}
		_, err := s.GetIntegrationKeyByHash(ctx, tk.Hash)
		wantErr(t, "GetIntegrationKeyByHash(replaced test key)", err, verifier.ErrNotFound)
		if got, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive); err != nil {
			t.Fatalf("live key after the test key's rotation: %v", err)
		} else {
			equalKey(t, "live key untouched", got, live)
		}
		// Updates and deletes reach only the named mode's key.
		upd, err := s.UpdateIntegrationKey(ctx, a.ID, verifier.ModeTest, func(k *verifier.IntegrationKey) error {
			k.RateLimitPerHour, k.Mode = 77, verifier.ModeLive // Mode cannot change
			return nil
		})
		if err != nil || upd.RateLimitPerHour != 77 || upd.Mode != verifier.ModeTest {
			t.Fatalf("UpdateIntegrationKey(test) = %+v, %v; want rate 77, still test", upd, err)
		}
		if got, _ := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive); got.RateLimitPerHour != live.RateLimitPerHour {
			t.Errorf("updating the test key changed the live key's limit to %d", got.RateLimitPerHour)
		}
		if err := s.DeleteIntegrationKey(ctx, a.ID, verifier.ModeTest); err != nil {
			t.Fatalf("DeleteIntegrationKey(test): %v", err)
		}
		_, err = s.GetIntegrationKey(ctx, a.ID, verifier.ModeTest)
		wantErr(t, "GetIntegrationKey(deleted test key)", err, verifier.ErrNotFound)
		if _, err := s.GetIntegrationKey(ctx, a.ID, verifier.ModeLive); err != nil {
			t.Errorf("deleting the test key removed the live key: %v", err)
		}
	})

	t.Run("TestVerificationsUseNoAllowance", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		one := verifier.Allowance{Limit: 1, Since: base}
		live := newVerification(a.ID)
		if err := s.CreateVerification(ctx, live, one); err != nil {
			t.Fatalf("live create within allowance: %v", err)
		}
		var tests []verifier.Verification
		for range 3 { // beyond the allowance, and whatever allowance is passed
			v := newVerification(a.ID)
			v.Mode = verifier.ModeTest
			if err := s.CreateVerification(ctx, v, one); err != nil {
				t.Fatalf("test create: %v", err)
			}
			tests = append(tests, storedV(v))
		}
		got, err := s.GetVerification(ctx, a.ID, tests[0].ID)
		if err != nil {
			t.Fatalf("GetVerification(test): %v", err)
		}
		equalVerification(t, "test verification", got, tests[0])
		// Moving test ones through statuses releases nothing they never held.
		for _, st := range []verifier.Status{verifier.StatusStarted, verifier.StatusCanceled} {
			if _, err := s.UpdateVerification(ctx, a.ID, tests[1].ID, func(x *verifier.Verification) error { x.Status = st; return nil }); err != nil {
				t.Fatalf("test → %s: %v", st, err)
			}
		}
		if err := s.DeleteVerification(ctx, a.ID, tests[2].ID, base.Add(time.Minute)); err != nil {
			t.Fatalf("DeleteVerification(test): %v", err)
		}
		u, err := s.QuotaUsage(ctx, a.ID, base)
		if err != nil {
			t.Fatalf("QuotaUsage: %v", err)
		}
		if u[verifier.TypeCore] != 1 {
			t.Errorf("core usage %d with one live and three test verifications; want 1", u[verifier.TypeCore])
		}
		// The live allowance is still full, and still exact.
		v := newVerification(a.ID)
		var qe *verifier.QuotaError
		if err := s.CreateVerification(ctx, v, one); !asQuota(err, &qe) {
			t.Fatalf("second live create under allowance 1: %v; want a *QuotaError", err)
		}
		if _, err := s.UpdateVerification(ctx, a.ID, live.ID, func(x *verifier.Verification) error { x.Status = verifier.StatusCanceled; return nil }); err != nil {
			t.Fatalf("cancel live: %v", err)
		}
		if err := s.CreateVerification(ctx, v, one); err != nil {
			t.Fatalf("live create after the live slot was released: %v", err)
		}
	})

	t.Run("ListedApart", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		live := mustVerification(t, s, newVerification(a.ID))
		tv := newVerification(a.ID)
		tv.Mode = verifier.ModeTest
		tv = mustVerification(t, s, tv)
		for _, c := range []struct {
			mode verifier.Mode
			want string
		}{{verifier.ModeLive, live.ID}, {verifier.ModeTest, tv.ID}} {
			p, err := s.ListVerifications(ctx, a.ID, verifier.VerificationFilter{Mode: c.mode})
			if err != nil {
				t.Fatalf("ListVerifications(%s): %v", c.mode, err)
			}
			if len(p.Items) != 1 || p.Items[0].ID != c.want || p.Items[0].Mode != c.mode {
				t.Errorf("%s list = %+v; want only %s", c.mode, p.Items, c.want)
			}
		}
	})
}

func asQuota(err error, qe **verifier.QuotaError) bool {
	return errors.As(err, qe)
}
