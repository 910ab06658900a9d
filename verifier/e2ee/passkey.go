package e2ee

import (
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters. Defaults are what new keys get; the floors stop a
// client from creating a key that is cheap to brute-force (its salt and
// public key appear in every payload sealed for it); the ceilings stop a
// hostile payload from making a decrypting client allocate without bound.
const (
	SaltSize           = 16
	DefaultMemoryKiB   = 64 * 1024
	DefaultIterations  = 3
	DefaultParallelism = 1
	MinNewMemoryKiB    = DefaultMemoryKiB
	MinNewIterations   = DefaultIterations
	MaxMemoryKiB       = 1024 * 1024 // 1 GiB
	MaxIterations      = 16
	MaxParallelism     = 16
	// MinPassphraseLen is in characters, for new keys only.
	MinPassphraseLen = 12
	// MaxNameLen bounds key labels (passphrase and custom), in characters.
	MaxNameLen = 100
	seedSize   = 32
)

// HKDF strings of the passphrase → P-256 rule (AlgPassphrase).
const (
	scalarSalt     = "idgate/e2ee/v1/passphrase-key"
	scalarInfo     = "P-256 private scalar "
	maxScalarTries = 256
)

// KDFParams are the non-secret inputs that turn a passphrase into the
// private key of a PassphraseKey.
type KDFParams struct {
	Alg         string `json:"alg"`
	Salt        []byte `json:"salt"`
	MemoryKiB   uint32 `json:"memory_kib"`
	Iterations  uint32 `json:"iterations"`
	Parallelism uint8  `json:"parallelism"`
}

// PassphraseKey is the public part of an account's passphrase key: what the
// server stores and what `encryption_key` repeats in every payload sealed for
// it. ID is assigned by the server.
type PassphraseKey struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// PublicKey is the uncompressed P-256 point (0x04 || X || Y, 65 bytes).
	PublicKey []byte    `json:"public_key"`
	KDF       KDFParams `json:"kdf"`
}

// NewKDFParams draws a fresh salt for the given cost parameters.
func NewKDFParams(memoryKiB, iterations uint32, parallelism uint8) (KDFParams, error) {
	p := KDFParams{Alg: AlgPassphrase, Salt: make([]byte, SaltSize),
		MemoryKiB: memoryKiB, Iterations: iterations, Parallelism: parallelism}
	if _, err := rand.Read(p.Salt); err != nil {
		return KDFParams{}, fmt.Errorf("new KDF params: salt: %w", err)
	}
	return p, p.Validate()
}

// DefaultKDFParams are NewKDFParams with the default costs.
func DefaultKDFParams() (KDFParams, error) {
	return NewKDFParams(DefaultMemoryKiB, DefaultIterations, DefaultParallelism)
}

// Validate checks the identifier, salt length and that the costs lie within
// what any client can be asked to compute.
func (p KDFParams) Validate() error {
	switch {
	case p.Alg != AlgPassphrase:
		return fmt.Errorf("KDF alg %q: %w", p.Alg, ErrUnsupportedAlgorithm)
	case len(p.Salt) != SaltSize:
		return fmt.Errorf("KDF salt is %d bytes, want %d: %w", len(p.Salt), SaltSize, ErrMalformed)
	case p.Parallelism < 1 || p.Parallelism > MaxParallelism,
		p.Iterations < 1 || p.Iterations > MaxIterations,
		p.MemoryKiB < 8*uint32(p.Parallelism) || p.MemoryKiB > MaxMemoryKiB:
		return fmt.Errorf("KDF m=%d KiB t=%d p=%d outside m 8p..%d, t 1..%d, p 1..%d: %w",
			p.MemoryKiB, p.Iterations, p.Parallelism, MaxMemoryKiB, MaxIterations, MaxParallelism, ErrMalformed)
	}
	return nil
}

// CheckStrength is the floor for creating a key (the upload endpoint and the
// CLI apply it); existing keys are derived whatever their costs.
func (p KDFParams) CheckStrength() error {
	if p.MemoryKiB < MinNewMemoryKiB || p.Iterations < MinNewIterations {
		return fmt.Errorf("KDF m=%d KiB t=%d below the minimum m=%d KiB t=%d: %w",
			p.MemoryKiB, p.Iterations, MinNewMemoryKiB, MinNewIterations, ErrWeakKey)
	}
	return nil
}

// DerivePrivateKey re-derives the private key of a passphrase key. The
// passphrase is used as given (its UTF-8 bytes, no normalisation).
func DerivePrivateKey(passphrase []byte, p KDFParams) (*ecdh.PrivateKey, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("derive passphrase key: %w", err)
	}
	if len(passphrase) == 0 {
		return nil, fmt.Errorf("derive passphrase key: empty passphrase: %w", ErrWrongPassphrase)
	}
	return scalarFromSeed(argonSeed(passphrase, p))
}

// argonSeed is Argon2id (version 0x13) with a 32-byte output.
func argonSeed(passphrase []byte, p KDFParams) []byte {
	return argon2.IDKey(passphrase, p.Salt, p.Iterations, p.MemoryKiB, p.Parallelism, seedSize)
}

// scalarFromSeed maps a seed to a P-256 private key: candidate i is
// HKDF-SHA256(ikm=seed, salt=scalarSalt, info=scalarInfo||byte(i), 32 bytes)
// read big-endian; the first candidate in [1, n-1] wins. One candidate in
// about 2^32 is rejected, so i is almost always 0.
func scalarFromSeed(seed []byte) (*ecdh.PrivateKey, error) {
	return firstScalar(func(i byte) ([]byte, error) {
		return hkdf.Key(sha256.New, seed, []byte(scalarSalt), scalarInfo+string([]byte{i}), 32)
	})
}

// firstScalar is the rejection loop, separate so tests can drive it with
// out-of-range candidates that a real seed practically never yields.
func firstScalar(candidate func(i byte) ([]byte, error)) (*ecdh.PrivateKey, error) {
	for i := 0; i < maxScalarTries; i++ {
		c, err := candidate(byte(i))
		if err != nil {
			return nil, fmt.Errorf("derive P-256 scalar: %w", err)
		}
		if k, err := ecdh.P256().NewPrivateKey(c); err == nil {
			return k, nil
		}
	}
	return nil, fmt.Errorf("derive P-256 scalar: no candidate in range: %w", ErrMalformed)
}

// NewPassphraseKey derives a new key locally and returns its public part
// (for upload) and the private key. It applies the new-key floors.
func NewPassphraseKey(name string, passphrase []byte, p KDFParams) (PassphraseKey, *ecdh.PrivateKey, error) {
	if err := ValidateName(name); err != nil {
		return PassphraseKey{}, nil, fmt.Errorf("new passphrase key: %w", err)
	}
	if n := utf8.RuneCount(passphrase); n < MinPassphraseLen {
		return PassphraseKey{}, nil, fmt.Errorf("new passphrase key: passphrase has %d characters, need %d: %w",
			n, MinPassphraseLen, ErrWeakKey)
	}
	if err := p.CheckStrength(); err != nil {
		return PassphraseKey{}, nil, fmt.Errorf("new passphrase key: %w", err)
	}
	priv, err := DerivePrivateKey(passphrase, p)
	if err != nil {
		return PassphraseKey{}, nil, fmt.Errorf("new passphrase key: %w", err)
	}
	return PassphraseKey{Name: name, PublicKey: priv.PublicKey().Bytes(), KDF: p}, priv, nil
}

// Validate checks an uploaded or embedded public part: name, parameters and
// that PublicKey is a point on P-256.
func (k PassphraseKey) Validate() error {
	if err := ValidateName(k.Name); err != nil {
		return fmt.Errorf("passphrase key: %w", err)
	}
	if err := k.KDF.Validate(); err != nil {
		return fmt.Errorf("passphrase key: %w", err)
	}
	if _, err := k.publicKey(); err != nil {
		return fmt.Errorf("passphrase key: %w", err)
	}
	return nil
}

func (k PassphraseKey) publicKey() (*ecdh.PublicKey, error) {
	pub, err := ecdh.P256().NewPublicKey(k.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("public key is not an uncompressed P-256 point: %w", ErrMalformed)
	}
	return pub, nil
}

// ValidateName checks a key label: 1 to MaxNameLen characters of valid
// UTF-8 without control characters (it is shown in dashboards and logs).
func ValidateName(name string) error {
	if !utf8.ValidString(name) {
		return fmt.Errorf("key name is not UTF-8: %w", ErrMalformed)
	}
	if n := utf8.RuneCountInString(name); n < 1 || n > MaxNameLen {
		return fmt.Errorf("key name has %d characters, want 1 to %d: %w", n, MaxNameLen, ErrMalformed)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("key name holds control character %U: %w", r, ErrMalformed)
		}
	}
	return nil
}
