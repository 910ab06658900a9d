package seal

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ParseKey reads a server key's configured text form (IDGATE_SECRET_KEY,
// IDGATE_PROXY_KEY): standard or URL-safe base64, padded or not, of exactly
// KeySize random bytes, e.g. `openssl rand -base64 32`. Surrounding space
// is ignored.
func ParseKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if key, err := enc.DecodeString(text); err == nil {
			if len(key) != KeySize {
				return nil, fmt.Errorf("server key: %d bytes, want %d", len(key), KeySize)
			}
			return key, nil
		}
	}
	return nil, errors.New("server key: not base64")
}

// NewKey is a fresh random server key.
func NewKey() []byte {
	key := make([]byte, KeySize)
	_, _ = rand.Read(key) // cannot fail since Go 1.24
	return key
}

// LoadOrCreateKey is the dev stand-in for a configured server key: the key
// in the file at path, or, when there is no file yet, a fresh random key
// written there, so data sealed under it stays readable across restarts.
func LoadOrCreateKey(path string) ([]byte, error) {
	text, err := LoadOrCreateFile(path, func() (string, error) {
		return base64.StdEncoding.EncodeToString(NewKey()) + "\n", nil
	})
	if err != nil {
		return nil, err
	}
	key, err := ParseKey(text)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return key, nil
}

// LoadOrCreateFile is the dev key-file rule shared by every generated
// secret (the server key, the verifier's JWT keys): the text of the file at
// path, or, when there is none, generate's text written there first. The
// file is created exclusively with mode 0600 (directory 0700), so two
// processes starting at once agree on one key; a file others can read is
// refused rather than trusted.
func LoadOrCreateFile(path string, generate func() (string, error)) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("key file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		text, err := generate()
		if err == nil {
			_, err = f.WriteString(text)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			// A half-written file would be read back as a broken key.
			_ = os.Remove(path)
			return "", fmt.Errorf("key file: write %s: %w", path, err)
		}
		return text, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("key file: %w", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("key file: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("key file %s is accessible by others (mode %o); chmod 600 it", path, info.Mode().Perm())
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("key file: %w", err)
	}
	return string(text), nil
}
