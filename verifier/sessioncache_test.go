package verifier_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/verifier"
)

// countingStore is the real SQLite store, counting account reads and able
// to make an account vanish (the Store contract has no account deletion;
// whatever removes one, Authenticate must notice within AccountCacheTTL).
type countingStore struct {
	verifier.Store
	mu      sync.Mutex
	reads   int
	removed map[string]bool
}

func (s *countingStore) GetAccount(ctx context.Context, id string) (verifier.Account, error) {
	s.mu.Lock()
	s.reads++
	gone := s.removed[id]
	s.mu.Unlock()
	if gone {
		return verifier.Account{}, verifier.ErrNotFound
	}
	return s.Store.GetAccount(ctx, id)
}

func (s *countingStore) remove(id string) {
	s.mu.Lock()
	s.removed[id] = true
	s.mu.Unlock()
}

func (s *countingStore) readCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reads
}

func newCountingAuth(t *testing.T) (*countingStore, *verifier.Authenticator, *authClock) {
	t.Helper()
	s := &countingStore{Store: sqliteStore(t), removed: map[string]bool{}}
	c := &authClock{authEpoch}
	auth, err := verifier.NewAuthenticator(s, authTokenConfig(hmacKey("k1", 'a')), c.Now)
	if err != nil {
		t.Fatal(err)
	}
	return s, auth, c
}

func TestAuthenticateCachesExistingAccounts(t *testing.T) {
	s, auth, c := newCountingAuth(t)
	ctx := context.Background()
	a := storeAccount(t, s, "owner@example.com", "correct horse battery staple")
	tok, err := auth.Issue(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		got, err := auth.Authenticate(ctx, tok.Token)
		if err != nil || got.ID != a.ID || got.Email != a.Email || !got.CreatedAt.Equal(a.CreatedAt) {
			t.Fatalf("authenticate %d: %+v %v", i, got, err)
		}
		// Credentials never travel with the request's account.
		if got.PasswordHash != "" || got.WebhookSecret != "" {
			t.Fatalf("authenticate %d returned credentials: %+v", i, got)
		}
	}
	if n := s.readCount(); n != 1 {
		t.Fatalf("5 authentications within the TTL read the account %d times, want 1", n)
	}
	// Once the TTL has passed the store is asked again.
	c.now = c.now.Add(verifier.AccountCacheTTL)
	if _, err := auth.Authenticate(ctx, tok.Token); err != nil {
		t.Fatal(err)
	}
	if n := s.readCount(); n != 2 {
		t.Fatalf("after the TTL: %d reads, want 2", n)
	}
	// A refused token never reaches the cache or the store.
	if _, err := auth.Authenticate(ctx, tok.Token+"x"); !errors.Is(err, verifier.ErrInvalidToken) {
		t.Fatalf("tampered token: %v", err)
	}
	if n := s.readCount(); n != 2 {
		t.Fatalf("tampered token read the store: %d reads", n)
	}
}

func TestAuthenticateRemovedAccountStopsWithinTTL(t *testing.T) {
	s, auth, c := newCountingAuth(t)
	ctx := context.Background()
	a := storeAccount(t, s, "owner@example.com", "correct horse battery staple")
	tok, _ := auth.Issue(a.ID)
	if _, err := auth.Authenticate(ctx, tok.Token); err != nil {
		t.Fatal(err)
	}
	s.remove(a.ID)
	// Still trusted from the cache just before the TTL ends...
	c.now = c.now.Add(verifier.AccountCacheTTL - time.Second)
	if _, err := auth.Authenticate(ctx, tok.Token); err != nil {
		t.Fatalf("inside the TTL: %v", err)
	}
	// ...refused from the moment it ends, and from then on.
	c.now = authEpoch.Add(verifier.AccountCacheTTL)
	for i := 0; i < 2; i++ {
		if _, err := auth.Authenticate(ctx, tok.Token); !errors.Is(err, verifier.ErrInvalidToken) {
			t.Fatalf("removed account after the TTL (%d): %v", i, err)
		}
	}
}

func TestAuthenticateUnknownAccountIsNeverCached(t *testing.T) {
	s, auth, _ := newCountingAuth(t)
	ctx := context.Background()
	ghost, _ := auth.Issue(uuid.NewString())
	for i := 1; i <= 3; i++ {
		if _, err := auth.Authenticate(ctx, ghost.Token); !errors.Is(err, verifier.ErrInvalidToken) {
			t.Fatalf("unknown account accepted: %v", err)
		}
		if n := s.readCount(); n != i {
			t.Fatalf("attempt %d: %d store reads, want %d (a miss must not be cached)", i, n, i)
		}
	}
}

// A cached token still expires when its exp (plus the 30 s leeway) says
// so, even inside AccountCacheTTL.
func TestAuthenticateCachedTokenStillExpires(t *testing.T) {
	s, auth, c := newCountingAuth(t)
	ctx := context.Background()
	a := storeAccount(t, s, "owner@example.com", "correct horse battery staple")
	tok, _ := auth.Issue(a.ID) // exp: authEpoch + 1 h
	c.now = authEpoch.Add(time.Hour + 29*time.Second)
	if _, err := auth.Authenticate(ctx, tok.Token); err != nil {
		t.Fatalf("inside the leeway: %v", err)
	}
	c.now = authEpoch.Add(time.Hour + 30*time.Second) // 1 s later, well inside AccountCacheTTL
	if _, err := auth.Authenticate(ctx, tok.Token); !errors.Is(err, verifier.ErrInvalidToken) {
		t.Fatalf("expired token accepted from the cache: %v", err)
	}
}

// A clock set back before the token was cached gets a full check again
// (iat and nbf were only checked from then on).
func TestAuthenticateClockSetBack(t *testing.T) {
	s, auth, c := newCountingAuth(t)
	ctx := context.Background()
	a := storeAccount(t, s, "owner@example.com", "correct horse battery staple")
	tok, _ := auth.Issue(a.ID)
	if _, err := auth.Authenticate(ctx, tok.Token); err != nil {
		t.Fatal(err)
	}
	c.now = authEpoch.Add(-time.Hour) // the token's iat is now an hour ahead
	if _, err := auth.Authenticate(ctx, tok.Token); !errors.Is(err, verifier.ErrInvalidToken) {
		t.Fatalf("token from the future accepted from the cache: %v", err)
	}
}
