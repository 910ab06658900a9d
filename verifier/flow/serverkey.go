package flow

import (
	"github.com/idgate/idgate/verifier/webhook"
)

// ServerKey seals under the 32-byte server key (IDGATE_SECRET_KEY) with
// AES-256-GCM and the context as associated data, through the sealing the
// webhook secrets already use, until the shared internal/seal lands.
type ServerKey []byte

// Seal implements Sealer.
func (k ServerKey) Seal(plaintext []byte, context string) ([]byte, error) {
	s, err := webhook.SealSecret(k, context, string(plaintext))
	return []byte(s), err
}

// Open implements Sealer.
func (k ServerKey) Open(sealed []byte, context string) ([]byte, error) {
	s, err := webhook.OpenSecret(k, context, string(sealed))
	return []byte(s), err
}
