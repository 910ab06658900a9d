package proxy

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

// ErrSealed is wrapped by every failure to open sealed data: a wrong key,
// tampering, or data sealed for another store or purpose.
var ErrSealed = errors.New("sealed data cannot be opened")

// sealPrefix marks the text form of sealed data, versioned so the format
// can change without guessing.
const sealPrefix = "v1."

// Sealer encrypts small secrets with AES-256-GCM under the server key. The
// context (store hash and purpose) is authenticated as additional data, so a
// ciphertext copied to another store or another field does not open.
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer takes the raw 32-byte server key.
func NewSealer(key []byte) (*Sealer, error) {
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

// ParseKey decodes the server key from its configured text form: standard
// or URL-safe base64 of 32 random bytes (`openssl rand -base64 32`).
func ParseKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(text); err == nil {
			if len(k) != KeySize {
				return nil, fmt.Errorf("parse server key: %d bytes, want %d", len(k), KeySize)
			}
			return k, nil
		}
	}
	return nil, errors.New("parse server key: not base64")
}

// Seal returns the URL-safe text form of plaintext sealed under context.
func (s *Sealer) Seal(plaintext []byte, context string) string {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(fmt.Sprintf("seal: crypto/rand failed: %v", err)) // never happens on supported platforms
	}
	out := s.aead.Seal(nonce, nonce, plaintext, []byte(context))
	return sealPrefix + base64.RawURLEncoding.EncodeToString(out)
}

// Open reverses Seal; any mismatch is ErrSealed.
func (s *Sealer) Open(text, context string) ([]byte, error) {
	body, ok := strings.CutPrefix(text, sealPrefix)
	if !ok {
		return nil, fmt.Errorf("open sealed %s: %w: unknown format", context, ErrSealed)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < s.aead.NonceSize()+s.aead.Overhead() {
		return nil, fmt.Errorf("open sealed %s: %w: malformed", context, ErrSealed)
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(context))
	if err != nil {
		return nil, fmt.Errorf("open sealed %s: %w", context, ErrSealed)
	}
	return plain, nil
}
