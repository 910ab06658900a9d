package webhook

import (
	"context"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

// AccountSecrets keeps each account's signing secrets on its
// verifier.Account (sealed under the server key, IDGATE_SECRET_KEY). It is
// the Sender's SecretSource in the server, and rotates secrets for the API.
type AccountSecrets struct {
	Store     verifier.Store
	ServerKey []byte // 32 bytes
	Now       func() time.Time
}

var _ SecretSource = AccountSecrets{}

func keysOf(a verifier.Account) SigningKeys {
	return SigningKeys{Current: a.WebhookSecret, Previous: a.WebhookSecretPrevious, PreviousUntil: a.WebhookSecretPreviousUntil}
}

// Rotate makes a fresh secret the account's current one; the old current one
// keeps co-signing for RotationGrace. It returns the new secret in plain
// text, to be shown to the account holder once, and the keys as stored
// (PreviousUntil is zero when there was no secret before).
func (s AccountSecrets) Rotate(ctx context.Context, accountID string) (string, SigningKeys, error) {
	var secret string
	var keys SigningKeys
	_, err := s.Store.UpdateAccount(ctx, accountID, func(a *verifier.Account) error {
		now := s.Now()
		next, plain, err := Rotate(s.ServerKey, a.ID, keysOf(*a), now)
		if err != nil {
			return err
		}
		a.WebhookSecret, a.WebhookSecretPrevious, a.WebhookSecretPreviousUntil = next.Current, next.Previous, next.PreviousUntil
		a.UpdatedAt = now
		secret, keys = plain, next
		return nil
	})
	if err != nil {
		return "", SigningKeys{}, fmt.Errorf("rotate webhook secret of %s: %w", accountID, err)
	}
	return secret, keys, nil
}

// SigningSecrets implements SecretSource. An account that has no secret yet
// (none was rotated in before its first delivery) gets its first one here,
// so no delivery ever leaves unsigned; the account holder learns a secret by
// rotating (POST /webhook-secret), and the one created here keeps co-signing
// through the rotation grace period.
func (s AccountSecrets) SigningSecrets(ctx context.Context, accountID string) ([][]byte, error) {
	a, err := s.Store.GetAccount(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("signing secrets: %w", err)
	}
	keys := keysOf(a)
	if keys.Current == "" {
		if keys, err = s.ensure(ctx, accountID); err != nil {
			return nil, err
		}
	}
	src := KeySource{ServerKey: s.ServerKey, Now: s.Now,
		Lookup: func(context.Context, string) (SigningKeys, error) { return keys, nil }}
	return src.SigningSecrets(ctx, accountID)
}

// ensure creates the account's first secret unless a concurrent caller did,
// and returns the keys as stored.
func (s AccountSecrets) ensure(ctx context.Context, accountID string) (SigningKeys, error) {
	var keys SigningKeys
	_, err := s.Store.UpdateAccount(ctx, accountID, func(a *verifier.Account) error {
		keys = keysOf(*a)
		if keys.Current != "" {
			return nil
		}
		next, _, err := Rotate(s.ServerKey, a.ID, keys, s.Now())
		if err != nil {
			return err
		}
		a.WebhookSecret, keys = next.Current, next
		return nil
	})
	if err != nil {
		return SigningKeys{}, fmt.Errorf("first webhook secret of %s: %w", accountID, err)
	}
	return keys, nil
}
