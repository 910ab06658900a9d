// Package password hashes account passwords with argon2id and stores them
// in the PHC string format:
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
//
// (salt and hash in unpadded standard base64). Default follows the OWASP
// Password Storage Cheat Sheet minimum for argon2id: 19 MiB of memory,
// 2 passes, 1 lane, a 16-byte random salt and a 32-byte output. The
// parameters travel inside each hash, so raising them later keeps old hashes
// verifiable.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's cost parameters plus salt and output lengths.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8  // lanes
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// Default is what new hashes use.
var Default = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Password policy: long enough to resist guessing, bounded so hashing cost
// cannot be driven up with huge inputs.
const (
	MinLength = 8    // characters
	MaxLength = 1024 // bytes
)

var (
	// ErrMalformedHash: a stored hash is not a PHC argon2id string we accept.
	ErrMalformedHash = errors.New("malformed password hash")
	ErrTooShort      = fmt.Errorf("password shorter than %d characters", MinLength)
	ErrTooLong       = fmt.Errorf("password longer than %d bytes", MaxLength)
)

// Validate applies the password policy to a new password.
func Validate(pw string) error {
	if len(pw) > MaxLength {
		return ErrTooLong
	}
	if utf8.RuneCountInString(pw) < MinLength {
		return ErrTooShort
	}
	return nil
}

// Hash returns the PHC string of pw under Default with a fresh salt.
func Hash(pw string) (string, error) {
	return hashWith(Default, pw)
}

func hashWith(p Params, pw string) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return encode(p, salt, key), nil
}

func encode(p Params, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// Verify reports whether pw matches encoded, comparing in constant time.
// A malformed encoded hash is an error, never a match.
func Verify(encoded, pw string) (bool, error) {
	p, salt, key, err := Parse(encoded)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

var dummy = sync.OnceValue(func() string {
	h, err := Hash("dummy password for unknown accounts")
	if err != nil {
		panic(err) // crypto/rand failing leaves nothing sensible to do
	}
	return h
})

// VerifyDummy does the work of a Verify against a Default hash and always
// fails, so signing in with an unknown e-mail costs as much as a wrong
// password and response times do not reveal which accounts exist.
func VerifyDummy(pw string) {
	_, _ = Verify(dummy(), pw)
}

// Limits on parsed parameters, so a corrupted or hostile stored hash cannot
// make verification allocate without bound.
const (
	maxMemory = 1 << 21 // KiB (2 GiB)
	maxTime   = 64
)

// Parse decodes a PHC argon2id string, refusing versions other than 19 and
// parameters outside sane bounds.
func Parse(encoded string) (Params, []byte, []byte, error) {
	fail := func(why string) (Params, []byte, []byte, error) {
		return Params{}, nil, nil, fmt.Errorf("%w: %s", ErrMalformedHash, why)
	}
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return fail("want $argon2id$v=..$m=..,t=..,p=..$salt$hash")
	}
	if parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return fail("unsupported version")
	}
	var p Params
	fields := strings.Split(parts[3], ",")
	if len(fields) != 3 {
		return fail("want m, t and p")
	}
	for i, name := range []string{"m", "t", "p"} {
		k, v, ok := strings.Cut(fields[i], "=")
		if !ok || k != name {
			return fail("want m, t and p in that order")
		}
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return fail("parameter " + name + " is not a number")
		}
		switch name {
		case "m":
			p.Memory = uint32(n)
		case "t":
			p.Time = uint32(n)
		case "p":
			if n > 255 {
				return fail("p out of range")
			}
			p.Threads = uint8(n)
		}
	}
	if p.Time < 1 || p.Time > maxTime || p.Threads < 1 || p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory {
		return fail("parameters out of range")
	}
	salt, err := base64.RawStdEncoding.Strict().DecodeString(parts[4])
	if err != nil || len(salt) < 8 || len(salt) > 64 {
		return fail("bad salt")
	}
	key, err := base64.RawStdEncoding.Strict().DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return fail("bad hash")
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
