// Package seal encrypts small secrets for storage at rest: the proxy's
// BigCommerce credentials and shopper references, the verifier's webhook
// signing secrets. It is the one place either service does symmetric
// encryption with a server key.
//
// Scheme: AES-256-GCM under a 32-byte server key, a random 12-byte nonce per
// message, and a context string as the additional data, so a ciphertext
// copied to another record or purpose does not open. Callers pick contexts
// that cannot collide across purposes ("<store hash>/access_token",
// "external_id/<store hash>", an account's UUID for its webhook secrets).
//
// Text form: "v1." + base64url, no padding, of nonce || ciphertext || tag.
// The version names the scheme, so a later one can be told apart instead of
// guessed. Webhook secrets sealed before this package existed were written
// as "v1:" + the same bytes; Open still reads them.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the server key length: AES-256.
const KeySize = 32

// ErrOpen is wrapped by every failure to open sealed text: a wrong key,
// another context, tampering, or text that is not sealed at all.
var ErrOpen = errors.New("sealed data cannot be opened")

// prefix starts the text form; legacyPrefix is the webhook secrets' older
// spelling of the same scheme, read but never written.
const (
	prefix       = "v1."
	legacyPrefix = "v1:"
)

// Sealer seals and opens under one server key. It is safe for concurrent
// use.
type Sealer struct {
	aead cipher.AEAD
}

// New takes the raw 32-byte server key (ParseKey reads its text form).
func New(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("new sealer: key is %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("new sealer: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("new sealer: %w", err)
	}
	return &Sealer{aead: aead}, nil
}

// Ephemeral is a sealer under a fresh random key: what it seals opens only
// in this process (tests, benchmarks, the demo).
func Ephemeral() *Sealer {
	s, err := New(NewKey())
	if err != nil {
		panic(err) // a KeySize key always makes a sealer
	}
	return s
}

// Seal returns the text form of plaintext sealed under context. A random
// nonce makes every call's output different. (crypto/rand.Read cannot fail
// since Go 1.24: it aborts the program instead.)
func (s *Sealer) Seal(plaintext []byte, context string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	out := s.aead.Seal(nonce, nonce, plaintext, []byte(context))
	return prefix + base64.RawURLEncoding.EncodeToString(out)
}

// Open reverses Seal for the same key and context; any mismatch wraps
// ErrOpen. It never panics, whatever text it is given.
func (s *Sealer) Open(text, context string) ([]byte, error) {
	body, ok := strings.CutPrefix(text, prefix)
	if !ok {
		if body, ok = strings.CutPrefix(text, legacyPrefix); !ok {
			return nil, fmt.Errorf("open sealed %s: %w: unknown format", context, ErrOpen)
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < s.aead.NonceSize()+s.aead.Overhead() {
		return nil, fmt.Errorf("open sealed %s: %w: malformed", context, ErrOpen)
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(context))
	if err != nil {
		return nil, fmt.Errorf("open sealed %s: %w", context, ErrOpen)
	}
	return plain, nil
}
