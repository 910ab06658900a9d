package verifier

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/idgate/idgate/internal/seal"
)

// SigningKey is one HS256 secret with the kid that names it in tokens.
//
// Text form (IDGATE_JWT_KEYS and the dev key file): "kid:base64secret"
// entries separated by commas or newlines. kid is 1-64 of [A-Za-z0-9._-];
// the secret is base64 (standard or URL alphabet, padding optional) of 32 to
// 512 bytes.
type SigningKey struct {
	ID     string
	Secret []byte
}

const (
	minSecretLen = 32 // HS256 needs at least the hash size (RFC 7518 §3.2)
	maxSecretLen = 512
	maxKIDLen    = 64
)

func (k SigningKey) validate() error {
	if k.ID == "" || len(k.ID) > maxKIDLen || strings.Trim(k.ID, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
		return fmt.Errorf("key id %q: want 1-%d of A-Z a-z 0-9 . _ -", k.ID, maxKIDLen)
	}
	if len(k.Secret) < minSecretLen || len(k.Secret) > maxSecretLen {
		return fmt.Errorf("key %q: secret must be %d-%d bytes, got %d", k.ID, minSecretLen, maxSecretLen, len(k.Secret))
	}
	return nil
}

// ParseSigningKeys reads the text form. Errors never echo secrets.
func ParseSigningKeys(s string) ([]SigningKey, error) {
	var keys []SigningKey
	seen := map[string]bool{}
	for _, entry := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == '\r' }) {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		kid, secret, ok := strings.Cut(entry, ":")
		if !ok {
			return nil, errors.New("parse signing keys: want kid:base64secret")
		}
		raw, err := decodeSecret(secret)
		if err != nil {
			return nil, fmt.Errorf("parse signing keys: key %q: secret is not base64", kid)
		}
		k := SigningKey{ID: kid, Secret: raw}
		if err := k.validate(); err != nil {
			return nil, fmt.Errorf("parse signing keys: %w", err)
		}
		if seen[kid] {
			return nil, fmt.Errorf("parse signing keys: duplicate key id %q", kid)
		}
		seen[kid] = true
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, errors.New("parse signing keys: no keys")
	}
	return keys, nil
}

func decodeSecret(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// FormatSigningKeys is the inverse of ParseSigningKeys.
func FormatSigningKeys(keys []SigningKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.ID + ":" + base64.StdEncoding.EncodeToString(k.Secret)
	}
	return strings.Join(parts, "\n") + "\n"
}

// GenerateSigningKey makes a random 32-byte key with a random kid.
func GenerateSigningKey() (SigningKey, error) {
	id := make([]byte, 4)
	secret := make([]byte, minSecretLen)
	if _, err := rand.Read(id); err != nil {
		return SigningKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	if _, err := rand.Read(secret); err != nil {
		return SigningKey{}, fmt.Errorf("generate signing key: %w", err)
	}
	return SigningKey{ID: "dev-" + hex.EncodeToString(id), Secret: secret}, nil
}

// LoadOrCreateKeyFile is the dev-mode key source: it reads path, or on first
// use writes a fresh key there (seal.LoadOrCreateFile: mode 0600, a file
// others can read refused) so tokens survive restarts.
func LoadOrCreateKeyFile(path string) ([]SigningKey, error) {
	text, err := seal.LoadOrCreateFile(path, func() (string, error) {
		k, err := GenerateSigningKey()
		if err != nil {
			return "", err
		}
		return FormatSigningKeys([]SigningKey{k}), nil
	})
	if err != nil {
		return nil, fmt.Errorf("jwt keys: %w", err)
	}
	keys, err := ParseSigningKeys(text)
	if err != nil {
		return nil, fmt.Errorf("jwt key file %s: %w", path, err)
	}
	return keys, nil
}
