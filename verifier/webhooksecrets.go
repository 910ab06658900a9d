package verifier

import (
	"context"
	"fmt"
	"time"

	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/verifier/webhook"
)

// WebhookSecrets keeps each account's webhook signing secrets on its
// Account, sealed under the server key (IDGATE_SECRET_KEY). It is the
// webhook Sender's SecretSource in the server, and rotates secrets for the
// API.
type WebhookSecrets struct {
	Store  Store
	Sealer *seal.Sealer // under the server key
	Now    func() time.Time
}

var _ webhook.SecretSource = WebhookSecrets{}

func keysOf(a Account) webhook.SigningKeys {
	return webhook.SigningKeys{Current: a.WebhookSecret, Previous: a.WebhookSecretPrevious, PreviousUntil: a.WebhookSecretPreviousUntil}
}

// Rotate makes a fresh secret the account's current one; the old current
// one keeps co-signing for webhook.RotationGrace. It returns the new secret
// in plain text, to be shown to the account holder once, and the keys as
// stored (PreviousUntil is zero when there was no secret before).
func (s WebhookSecrets) Rotate(ctx context.Context, accountID string) (string, webhook.SigningKeys, error) {
	var secret string
	var keys webhook.SigningKeys
	_, err := s.Store.UpdateAccount(ctx, accountID, func(a *Account) error {
		now := s.Now()
		next, plain, err := webhook.Rotate(s.Sealer, a.ID, keysOf(*a), now)
		if err != nil {
			return err
		}
		a.WebhookSecret, a.WebhookSecretPrevious, a.WebhookSecretPreviousUntil = next.Current, next.Previous, next.PreviousUntil
		a.UpdatedAt = now
		secret, keys = plain, next
		return nil
	})
	if err != nil {
		return "", webhook.SigningKeys{}, fmt.Errorf("rotate webhook secret of %s: %w", accountID, err)
	}
	return secret, keys, nil
}

// SigningSecrets implements webhook.SecretSource. An account that has no
// secret yet (none was rotated in before its first delivery) gets its first
// one here,
// so no delivery ever leaves unsigned; the account holder learns a secret by
// rotating (POST /webhook-secret), and the one created here keeps co-signing
// through the rotation grace period.
func (s WebhookSecrets) SigningSecrets(ctx context.Context, accountID string) ([][]byte, error) {
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
	src := webhook.KeySource{Sealer: s.Sealer, Now: s.Now,
		Lookup: func(context.Context, string) (webhook.SigningKeys, error) { return keys, nil }}
	return src.SigningSecrets(ctx, accountID)
}

// ensure creates the account's first secret unless a concurrent caller did,
// and returns the keys as stored.
func (s WebhookSecrets) ensure(ctx context.Context, accountID string) (webhook.SigningKeys, error) {
	var keys webhook.SigningKeys
	_, err := s.Store.UpdateAccount(ctx, accountID, func(a *Account) error {
		keys = keysOf(*a)
		if keys.Current != "" {
			return nil
		}
		next, _, err := webhook.Rotate(s.Sealer, a.ID, keys, s.Now())
		if err != nil {
			return err
		}
		a.WebhookSecret, keys = next.Current, next
		return nil
	})
	if err != nil {
		return webhook.SigningKeys{}, fmt.Errorf("first webhook secret of %s: %w", accountID, err)
	}
	return keys, nil
}
