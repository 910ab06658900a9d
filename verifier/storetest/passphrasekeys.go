package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/e2ee"
)

func newPassphraseKey(accountID string) verifier.PassphraseKey {
	pub := append([]byte{4}, randomBytes(64)...) // the store keeps bytes; e2ee checks the point
	return verifier.PassphraseKey{
		AccountID: accountID,
		Key: e2ee.PassphraseKey{ID: uuid.NewString(), Name: "Finance team", PublicKey: pub,
			KDF: e2ee.KDFParams{Alg: e2ee.AlgPassphrase, Salt: randomBytes(e2ee.SaltSize), MemoryKiB: 65536, Iterations: 3, Parallelism: 1}},
		CreatedAt: base,
	}
}

func equalPassphraseKey(t *testing.T, what string, got, want verifier.PassphraseKey) {
	t.Helper()
	g, w := got.Key, want.Key
	if g.ID != w.ID || got.AccountID != want.AccountID || g.Name != w.Name || !bytes.Equal(g.PublicKey, w.PublicKey) ||
		g.KDF.Alg != w.KDF.Alg || !bytes.Equal(g.KDF.Salt, w.KDF.Salt) || g.KDF.MemoryKiB != w.KDF.MemoryKiB ||
		g.KDF.Iterations != w.KDF.Iterations || g.KDF.Parallelism != w.KDF.Parallelism ||
		!sameTime(got.CreatedAt, wantTime(want.CreatedAt)) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func testPassphraseKeys(t *testing.T, s verifier.Store) {
	ctx := context.Background()
	t.Run("RoundTripAndOrder", func(t *testing.T) {
		t.Parallel()
		a := mustAccount(t, s)
		k1, k2 := newPassphraseKey(a.ID), newPassphraseKey(a.ID)
		k2.CreatedAt = base.Add(time.Second) // more than the microsecond the stores keep
		k2.Key.Name = "Second"
		for _, k := range []verifier.PassphraseKey{k2, k1} {
			if err := s.CreatePassphraseKey(ctx, k); err != nil {
				t.Fatalf("CreatePassphraseKey: %v", err)
			}
		}
		got, err := s.GetPassphraseKey(ctx, a.ID, k1.Key.ID)
		if err != nil {
			t.Fatal(err)
		}
		equalPassphraseKey(t, "get", got, k1)
		got.Key.PublicKey[1] ^= 0xff // a copy: the store is untouched
		again, _ := s.GetPassphraseKey(ctx, a.ID, k1.Key.ID)
		equalPassphraseKey(t, "after mutating a copy", again, k1)
		list, err := s.ListPassphraseKeys(ctx, a.ID)
		if err != nil || len(list) != 2 {
			t.Fatalf("list: %v %d", err, len(list))
		}
		equalPassphraseKey(t, "list[0]", list[0], k1)
		equalPassphraseKey(t, "list[1]", list[1], k2)
		if err := s.CreatePassphraseKey(ctx, k1); !errors.Is(err, verifier.ErrConflict) {
			t.Errorf("duplicate ID: %v, want ErrConflict", err)
		}
	})
	t.Run("TenantIsolationAndDelete", func(t *testing.T) {
		t.Parallel()
		a, b := mustAccount(t, s), mustAccount(t, s)
		k := newPassphraseKey(a.ID)
		if err := s.CreatePassphraseKey(ctx, k); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetPassphraseKey(ctx, b.ID, k.Key.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("other account's get: %v", err)
		}
		if list, err := s.ListPassphraseKeys(ctx, b.ID); err != nil || len(list) != 0 {
			t.Errorf("other account's list: %v %v", list, err)
		}
		if err := s.DeletePassphraseKey(ctx, b.ID, k.Key.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("other account's delete: %v", err)
		}
		if _, err := s.GetPassphraseKey(ctx, a.ID, "not-a-uuid"); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("malformed ID: %v", err)
		}
		if err := s.DeletePassphraseKey(ctx, a.ID, k.Key.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetPassphraseKey(ctx, a.ID, k.Key.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("after delete: %v", err)
		}
		if err := s.DeletePassphraseKey(ctx, a.ID, k.Key.ID); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("second delete: %v", err)
		}
		if err := s.CreatePassphraseKey(ctx, newPassphraseKey(uuid.NewString())); !errors.Is(err, verifier.ErrNotFound) {
			t.Errorf("unknown account: %v", err)
		}
	})
}
