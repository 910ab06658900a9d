package webhook

import (
	"context"
	"fmt"
	"time"

	"github.com/idgate/idgate/internal/seal"
)

// RotationGrace is how long the previous signing secret keeps signing (a
// second v1 in Idgate-Signature) after a rotation, so a receiver can switch
// to the new secret without rejecting deliveries in between.
const RotationGrace = 24 * time.Hour

// SigningKeys is what the account store keeps per account: sealed secrets
// only, never plain ones. A secret is sealed under the server key with the
// account's ID as the context, so a sealed secret copied onto another
// account does not open (the ID is a UUID, which no other purpose's context
// equals).
type SigningKeys struct {
	Current       string
	Previous      string    // "" when none
	PreviousUntil time.Time // Previous stops signing at this time
}

// Rotate makes a fresh secret current; the old current one keeps signing
// until now+RotationGrace. It returns the new keys to store and the new
// secret in plain text, to show the account holder once. On an account
// without keys it simply creates the first.
func Rotate(sealer *seal.Sealer, accountID string, k SigningKeys, now time.Time) (SigningKeys, string, error) {
	secret, err := NewSecret()
	if err != nil {
		return SigningKeys{}, "", fmt.Errorf("rotate webhook secret: %w", err)
	}
	next := SigningKeys{Current: sealer.Seal([]byte(secret), accountID)}
	if k.Current != "" {
		next.Previous, next.PreviousUntil = k.Current, now.Add(RotationGrace).UTC()
	}
	return next, secret, nil
}

// Active returns the sealed secrets that sign at now, newest first.
func (k SigningKeys) Active(now time.Time) []string {
	var out []string
	if k.Current != "" {
		out = append(out, k.Current)
	}
	if k.Previous != "" && now.Before(k.PreviousUntil) {
		out = append(out, k.Previous)
	}
	return out
}

// KeySource is the SecretSource over the account store: it looks up an
// account's SigningKeys and opens the active ones with the server key.
type KeySource struct {
	Sealer *seal.Sealer
	Lookup func(ctx context.Context, accountID string) (SigningKeys, error)
	Now    func() time.Time
}

// SigningSecrets implements SecretSource.
func (s KeySource) SigningSecrets(ctx context.Context, accountID string) ([][]byte, error) {
	k, err := s.Lookup(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("signing keys of %s: %w", accountID, err)
	}
	var out [][]byte
	for _, sealed := range k.Active(s.Now()) {
		secret, err := s.Sealer.Open(sealed, accountID)
		if err != nil {
			return nil, fmt.Errorf("signing keys of %s: %w", accountID, err)
		}
		out = append(out, []byte(secret))
	}
	return out, nil
}
