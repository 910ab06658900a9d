package flow

import "github.com/idgate/idgate/internal/seal"

// SealWith adapts the server's sealer (internal/seal, under
// IDGATE_SECRET_KEY: AES-256-GCM with the context as associated data) to
// Sealer.
func SealWith(s *seal.Sealer) Sealer { return serverSealer{s} }

type serverSealer struct{ s *seal.Sealer }

func (k serverSealer) Seal(plaintext []byte, context string) ([]byte, error) {
	return []byte(k.s.Seal(plaintext, context)), nil
}

func (k serverSealer) Open(sealed []byte, context string) ([]byte, error) {
	return k.s.Open(string(sealed), context)
}
