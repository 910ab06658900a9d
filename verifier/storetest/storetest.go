// Package storetest is the one conformance suite for verifier.Store. Every
// backend's tests call Run with a constructor for a fresh, migrated store;
// a backend that passes behaves the same as every other to the service.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

// Run checks s against the whole contract documented in verifier/store.go.
// newStore's store is shared by parallel subtests, each working on accounts
// of its own, as concurrent requests would; the ExpireDue tests, which sweep
// every account, call newStore for stores of their own.
func Run(t *testing.T, newStore func(t *testing.T) verifier.Store) {
	s := newStore(t)
	t.Run("Ping", func(t *testing.T) {
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
	})
	t.Run("Accounts", func(t *testing.T) { testAccounts(t, s) })
	t.Run("Branding", func(t *testing.T) { testBranding(t, s) })
	t.Run("IntegrationKeys", func(t *testing.T) { testIntegrationKeys(t, s) })
	t.Run("Verifications", func(t *testing.T) { testVerifications(t, s) })
	t.Run("Quota", func(t *testing.T) { testQuota(t, s) })
	t.Run("List", func(t *testing.T) { testList(t, s) })
	t.Run("ConcurrentGets", func(t *testing.T) { testConcurrentGets(t, s) })
	t.Run("Templates", func(t *testing.T) { testTemplates(t, s) })
	t.Run("ExpireDue", func(t *testing.T) { testExpireDue(t, newStore) })
	t.Run("PassphraseKeys", func(t *testing.T) { testPassphraseKeys(t, s) })
	t.Run("DashboardSessions", func(t *testing.T) { testDashboardSessions(t, s) })
	t.Run("TestMode", func(t *testing.T) { testModes(t, s) })
}

// base is a fixed instant with nanoseconds and a non-UTC zone, so every
// round trip checks the UTC and microsecond rules.
var base = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.FixedZone("UTC+5:30", 5*3600+1800))

// wantTime is t as the contract says a store returns it.
func wantTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func newAccount() verifier.Account {
	id := uuid.NewString()
	return verifier.Account{
		ID:           id,
		Email:        id + "@example.com",
		PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
		CreatedAt:    base,
		UpdatedAt:    base.Add(time.Hour),
	}
}

// createAndGet stores a, reads it back by ID, fails unless it reads as a
// (times as the store keeps them), and returns it as stored.
func createAndGet(t *testing.T, s verifier.Store, a verifier.Account, what string) verifier.Account {
	t.Helper()
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	want := a
	want.CreatedAt, want.UpdatedAt = wantTime(a.CreatedAt), wantTime(a.UpdatedAt)
	got, err := s.GetAccount(context.Background(), a.ID)
	if err != nil {
		t.Fatalf("GetAccount: %v", err)
	}
	equalAccount(t, what, got, want)
	return want
}

// mustAccount stores a fresh account and returns it as stored.
func mustAccount(t *testing.T, s verifier.Store) verifier.Account {
	t.Helper()
	a := newAccount()
	if err := s.CreateAccount(context.Background(), a); err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	a.CreatedAt, a.UpdatedAt = wantTime(a.CreatedAt), wantTime(a.UpdatedAt)
	return a
}
