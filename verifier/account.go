package verifier

import (
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/idgate/idgate/internal/password"
	"github.com/idgate/idgate/internal/problem"
)

// Account is an account holder: a business that signs in with e-mail and
// password and owns verifications, templates and one integration key.
type Account struct {
	ID           string // UUID
	Email        string // normalised (trimmed, lower-case); unique across accounts
	PasswordHash string // argon2id in PHC string format; never the password
	// Webhook signing secrets, sealed with the server key (internal/seal,
	// the account ID as context), never in plain text: the current one and,
	// for a grace period after a rotation, the previous one, which co-signs
	// until WebhookSecretPreviousUntil. "" means none.
	WebhookSecret              string
	WebhookSecretPrevious      string
	WebhookSecretPreviousUntil time.Time
	// Branding is who the account is to the people its links reach
	// (branding.go): set when the account is made and on PATCH /me; an
	// older account may have none.
	Branding  Branding
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewAccount validates an e-mail and password and returns the account to
// store, with the password hashed (argon2id) and never kept.
func NewAccount(email, pw string, now time.Time) (Account, error) {
	email = NormalizeEmail(email)
	var ve ValidationError
	if err := ValidateEmail(email); err != nil {
		ve.Fields = append(ve.Fields, problem.Detail{Field: "email", Code: "invalid_email", Message: err.Error()})
	}
	if err := password.Validate(pw); err != nil {
		code := "too_short"
		if errors.Is(err, password.ErrTooLong) {
			code = "too_long"
		}
		ve.Fields = append(ve.Fields, problem.Detail{Field: "password", Code: code, Message: err.Error()})
	}
	if len(ve.Fields) > 0 {
		return Account{}, &ve
	}
	hash, err := password.Hash(pw)
	if err != nil {
		return Account{}, fmt.Errorf("new account: %w", err)
	}
	now = now.UTC().Truncate(time.Microsecond)
	return Account{ID: uuid.NewString(), Email: email, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}, nil
}

// IntegrationKey is the publishable key that may only create verifications,
// from an Origin on its allowlist. Exactly one exists per account and mode
// (a live and a test key): storing a new one revokes the previous one of
// its mode at once.
type IntegrationKey struct {
	ID        string // UUID; a public identifier, not the secret
	AccountID string
	// Prefix is the start of the key value ("idgk_" plus a few characters),
	// kept so the dashboard can show which key is active without the secret.
	Prefix string
	// Hash is SHA-256 of the whole key value. The value has 256 bits of
	// entropy, so a fast hash is safe and lets lookup be a single index probe.
	Hash []byte
	// AllowedDomains are the Origin patterns this key accepts
	// ("shop.example.com", "*.example.com").
	AllowedDomains []string
	// RateLimitPerHour is this key's own create limit (default 30).
	RateLimitPerHour int
	// Mode: a test key (idgk_test_…) creates test verifications. An
	// account has at most one key of each mode.
	Mode      Mode
	CreatedAt time.Time
	UpdatedAt time.Time
}
