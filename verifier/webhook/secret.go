package webhook

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// SecretPrefix starts every signing secret, so a leaked one is recognisable
// (secret scanners) and cannot be mistaken for another key.
const SecretPrefix = "whsec_"

// NewSecret returns a fresh signing secret: "whsec_" + base64url (no
// padding) of 32 random bytes, 49 characters. It is shown to the account
// holder once. The server needs it again to sign, so it cannot be stored
// hashed: store SealSecret's output instead.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("new webhook secret: %w", err)
	}
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// sealedPrefix versions the sealed form so the scheme can change later.
const sealedPrefix = "v1:"

// ErrSealed means a sealed secret is malformed, was sealed under another
// server key or for another account, or was altered.
var ErrSealed = errors.New("cannot open sealed webhook secret")

// SealSecret encrypts secret for storage at rest with AES-256-GCM under the
// 32-byte server key (IDGATE_SECRET_KEY). The account ID is the additional
// data, so a sealed secret copied onto another account does not open.
// Output: "v1:" + base64url(12-byte nonce || ciphertext || tag).
func SealSecret(key []byte, accountID, secret string) (string, error) {
	aead, err := newGCM(key)
	if err != nil {
		return "", fmt.Errorf("seal webhook secret: %w", err)
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal webhook secret: %w", err)
	}
	sealed := aead.Seal(nonce, nonce, []byte(secret), []byte(accountID))
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// OpenSecret reverses SealSecret. Any failure wraps ErrSealed (except a bad
// server key length).
func OpenSecret(key []byte, accountID, sealed string) (string, error) {
	aead, err := newGCM(key)
	if err != nil {
		return "", fmt.Errorf("open webhook secret: %w", err)
	}
	rest, ok := strings.CutPrefix(sealed, sealedPrefix)
	if !ok {
		return "", fmt.Errorf("open webhook secret: unknown format: %w", ErrSealed)
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", fmt.Errorf("open webhook secret: bad encoding: %w", ErrSealed)
	}
	n := aead.NonceSize()
	plain, err := aead.Open(nil, raw[:n], raw[n:], []byte(accountID))
	if err != nil {
		return "", fmt.Errorf("open webhook secret: %w", ErrSealed)
	}
	return string(plain), nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("server key is %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
