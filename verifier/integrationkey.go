package verifier

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/problem"
)

// Integration key values are "idgk_" (live) or "idgk_test_" (test)
// followed by the unpadded base64url encoding of 32 random bytes (48 or 53
// characters in all). Only SHA-256 of the value and its first characters
// (the mode's prefix and 7 more) are stored; the value is returned once, at
// generation.
const (
	IntegrationKeyPrefix     = "idgk_"
	TestIntegrationKeyPrefix = "idgk_test_"
	integrationKeyRandom     = 32
	integrationKeyRandomLen  = 43 // base64url characters of the random part
	// KeyPrefixLen characters of a live value are kept so the dashboard can
	// show which key is live ("idgk_AbC1234…") without the secret; a test
	// key keeps its longer prefix and as many random characters.
	KeyPrefixLen = 12

	DefaultKeyRateLimit = 30     // creates per hour per key (spec)
	MaxKeyRateLimit     = 100000 // creates per hour per key
)

var (
	// ErrInvalidKey: the X-API-Key value is malformed, unknown or revoked.
	ErrInvalidKey = errors.New("invalid integration key")
	// ErrOriginNotAllowed: the request's Origin is not on the key's allowlist.
	ErrOriginNotAllowed = errors.New("origin not allowed for this integration key")
)

// HashIntegrationKey is how key values are stored and looked up.
func HashIntegrationKey(value string) []byte {
	h := sha256.Sum256([]byte(value))
	return h[:]
}

// keyPrefix is the value prefix of mode m's keys.
func keyPrefix(m Mode) string {
	if m == ModeTest {
		return TestIntegrationKeyPrefix
	}
	return IntegrationKeyPrefix
}

// keyMode checks the shape so garbage never reaches the database, and
// returns the mode the value's prefix names.
func keyMode(value string) (Mode, bool) {
	// By length too: a live key's random part may itself begin "test_".
	m := ModeLive
	rest, ok := strings.CutPrefix(value, IntegrationKeyPrefix)
	if test, isTest := strings.CutPrefix(value, TestIntegrationKeyPrefix); isTest && len(test) == integrationKeyRandomLen {
		m, rest = ModeTest, test
	}
	if !ok || len(rest) != integrationKeyRandomLen {
		return m, false
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(rest)
	return m, err == nil && len(raw) == integrationKeyRandom
}

// KeySettings are the caller-editable fields of a key; nil leaves a field
// as it is (or, on generation, as it was on the previous key, else the
// default: an empty allowlist and DefaultKeyRateLimit).
type KeySettings struct {
	AllowedDomains   *[]string
	RateLimitPerHour *int
}

func (s KeySettings) apply(k *IntegrationKey) error {
	var ve ValidationError
	if s.AllowedDomains != nil {
		domains, err := NormalizeAllowlist(*s.AllowedDomains)
		var fe *ValidationError
		if errors.As(err, &fe) {
			ve.Fields = append(ve.Fields, fe.Fields...)
		} else if err != nil {
			return err
		}
		k.AllowedDomains = domains
	}
	if s.RateLimitPerHour != nil {
		n := *s.RateLimitPerHour
		if n < 1 || n > MaxKeyRateLimit {
			ve.Fields = append(ve.Fields, problem.Detail{Field: "rate_limit_per_hour", Code: "out_of_range",
				Message: fmt.Sprintf("must be between 1 and %d", MaxKeyRateLimit)})
		}
		k.RateLimitPerHour = n
	}
	if len(ve.Fields) > 0 {
		return &ve
	}
	return nil
}

// IntegrationKeys manages each account's one publishable key.
type IntegrationKeys struct {
	Store Store
	Now   func() time.Time
	// Dev accepts http://localhost origins (see origin.go).
	Dev bool
}

// Generate makes a new key of the caller's mode (ModeOf(ctx)) for
// accountID, revoking the previous one of that mode at once, and returns it
// with its value, which is never available again. Settings not given carry
// over from the previous key, so rotating a key does not break the
// storefronts on its allowlist. The live and the test key have their own
// allowlists and limits.
func (s IntegrationKeys) Generate(ctx context.Context, accountID string, set KeySettings) (IntegrationKey, string, error) {
	mode := ModeOf(ctx)
	k := IntegrationKey{RateLimitPerHour: DefaultKeyRateLimit, AllowedDomains: []string{}, Mode: mode}
	prev, err := s.Store.GetIntegrationKey(ctx, accountID, mode)
	switch {
	case err == nil:
		k.AllowedDomains, k.RateLimitPerHour = prev.AllowedDomains, prev.RateLimitPerHour
	case !errors.Is(err, ErrNotFound):
		return IntegrationKey{}, "", fmt.Errorf("generate integration key: %w", err)
	}
	if err := set.apply(&k); err != nil {
		return IntegrationKey{}, "", err
	}
	raw := make([]byte, integrationKeyRandom)
	if _, err := rand.Read(raw); err != nil {
		return IntegrationKey{}, "", fmt.Errorf("generate integration key: %w", err)
	}
	prefix := keyPrefix(mode)
	value := prefix + base64.RawURLEncoding.EncodeToString(raw)
	now := s.Now().UTC().Truncate(time.Microsecond)
	k.ID, k.AccountID = uuid.NewString(), accountID
	k.Prefix, k.Hash = value[:len(prefix)+KeyPrefixLen-len(IntegrationKeyPrefix)], HashIntegrationKey(value)
	k.CreatedAt, k.UpdatedAt = now, now
	if err := s.Store.PutIntegrationKey(ctx, k); err != nil {
		return IntegrationKey{}, "", fmt.Errorf("generate integration key: %w", err)
	}
	return k, value, nil
}

// Get returns the metadata of the key of the caller's mode; ErrNotFound if
// the account has none.
func (s IntegrationKeys) Get(ctx context.Context, accountID string) (IntegrationKey, error) {
	k, err := s.Store.GetIntegrationKey(ctx, accountID, ModeOf(ctx))
	if err != nil {
		return IntegrationKey{}, fmt.Errorf("get integration key: %w", err)
	}
	return k, nil
}

// Update changes the allowlist and/or rate limit; ErrNotFound if no key.
func (s IntegrationKeys) Update(ctx context.Context, accountID string, set KeySettings) (IntegrationKey, error) {
	k, err := s.Store.UpdateIntegrationKey(ctx, accountID, ModeOf(ctx), func(k *IntegrationKey) error {
		if err := set.apply(k); err != nil {
			return err
		}
		k.UpdatedAt = s.Now().UTC().Truncate(time.Microsecond)
		return nil
	})
	if err != nil {
		return IntegrationKey{}, fmt.Errorf("update integration key: %w", err)
	}
	return k, nil
}

// Revoke deletes the key; ErrNotFound if there is none.
func (s IntegrationKeys) Revoke(ctx context.Context, accountID string) error {
	if err := s.Store.DeleteIntegrationKey(ctx, accountID, ModeOf(ctx)); err != nil {
		return fmt.Errorf("revoke integration key: %w", err)
	}
	return nil
}

// Authenticate resolves an X-API-Key value presented with an Origin header:
// ErrInvalidKey if the value is not a current key, ErrOriginNotAllowed if
// the Origin is not on its allowlist. k.Mode is the key's mode (what it
// creates).
func (s IntegrationKeys) Authenticate(ctx context.Context, value, origin string) (IntegrationKey, error) {
	mode, ok := keyMode(value)
	if !ok {
		return IntegrationKey{}, ErrInvalidKey
	}
	k, err := s.Store.GetIntegrationKeyByHash(ctx, HashIntegrationKey(value))
	if errors.Is(err, ErrNotFound) || (err == nil && k.Mode != mode) {
		return IntegrationKey{}, ErrInvalidKey
	}
	if err != nil {
		return IntegrationKey{}, fmt.Errorf("authenticate integration key: %w", err)
	}
	if !OriginAllowed(origin, k.AllowedDomains, s.Dev) {
		return IntegrationKey{}, fmt.Errorf("%w: %q", ErrOriginNotAllowed, origin)
	}
	return k, nil
}
