package phone

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// CodeDigits is the length of a one-time code: six digits, so a guess
// succeeds once in a million, and the flow allows a few guesses per link.
const CodeDigits = 6

// ErrCodeFormat: the text entered is not a six-digit code.
var ErrCodeFormat = errors.New("not a six-digit code")

// NewCode is a fresh uniformly random six-digit code (leading zeros
// kept) from r (nil: crypto/rand).
func NewCode(r io.Reader) (string, error) {
	if r == nil {
		r = rand.Reader
	}
	n, err := rand.Int(r, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("new code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// ParseCode reads a code as typed: six ASCII digits, with spaces or a
// dash between them allowed ("123 456", "123-456"). Never panics (fuzzed).
func ParseCode(raw string) (string, error) {
	if len(raw) > 4*CodeDigits {
		return "", ErrCodeFormat
	}
	var b strings.Builder
	for _, r := range strings.TrimSpace(raw) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
		default:
			return "", ErrCodeFormat
		}
	}
	if b.Len() != CodeDigits {
		return "", ErrCodeFormat
	}
	return b.String(), nil
}

// HashedCode is a code as it is stored: a random salt and SHA-256 of salt
// and code. A six-digit code hashed this way is no secret from someone
// holding the hash for long (a million guesses), so it is also sealed in
// the session and lives minutes; the hash keeps the code itself out of
// every store and backup.
type HashedCode struct {
	Salt []byte `json:"salt"`
	Hash []byte `json:"hash"`
}

// HashCode hashes code under a fresh salt from r (nil: crypto/rand).
func HashCode(r io.Reader, code string) (HashedCode, error) {
	if r == nil {
		r = rand.Reader
	}
	salt := make([]byte, 16)
	if _, err := io.ReadFull(r, salt); err != nil {
		return HashedCode{}, fmt.Errorf("hash code: %w", err)
	}
	return HashedCode{Salt: salt, Hash: digest(salt, code)}, nil
}

// Matches reports in constant time whether code is the hashed one.
func (h HashedCode) Matches(code string) bool {
	if len(h.Hash) != sha256.Size {
		return false
	}
	return subtle.ConstantTimeCompare(digest(h.Salt, code), h.Hash) == 1
}

func digest(salt []byte, code string) []byte {
	d := sha256.New()
	d.Write(salt)
	d.Write([]byte(code))
	return d.Sum(nil)
}
