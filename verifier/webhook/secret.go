package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
)

// SecretPrefix starts every signing secret, so a leaked one is recognisable
// (secret scanners) and cannot be mistaken for another key.
const SecretPrefix = "whsec_"

// NewSecret returns a fresh signing secret: "whsec_" + base64url (no
// padding) of 32 random bytes, 49 characters. It is shown to the account
// holder once. The server needs it again to sign, so it cannot be stored
// hashed: the account store keeps it sealed (Rotate).
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("new webhook secret: %w", err)
	}
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}
