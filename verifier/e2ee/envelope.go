package e2ee

import (
	"encoding/json"
	"fmt"
)

// Version is the scheme version written into Encryption.Version and
// SealedMember.Version. It pins every algorithm, byte layout and HKDF string
// in docs/encryption.md; readers refuse any other value.
const Version = 1

// Algorithm identifiers as they appear on the wire.
const (
	AlgContent    = "A256GCM"               // AES-256-GCM, 96-bit nonce, 128-bit tag
	AlgWrapRSA    = "RSA-OAEP-256"          // RSA-OAEP, SHA-256, MGF1-SHA-256, empty label
	AlgAgreeECDH  = "ECDH-P256-HKDF-SHA256" // ephemeral-static ECDH on P-256, then HKDF-SHA256
	AlgPassphrase = "argon2id-hkdf-p256-v1" // passphrase → P-256 key rule of a PassphraseKey
)

// Protected members, named by their path in the result payload. The name is
// the AES-GCM associated data, so an envelope moved to another member fails.
const (
	MemberLicenseData = "license_data"
	MemberPhoneLookup = "phone_verification.lookup"
	MemberPhoto       = "license_photo"
)

// Members lists every protected member in payload order.
var Members = []string{MemberLicenseData, MemberPhoneLookup, MemberPhoto}

// Encryption is the result payload's `encryption` object: which scheme
// version and algorithms sealed the protected members, and for custom mode
// the wrapped content key.
type Encryption struct {
	Version    int    `json:"version"`
	Mode       Mode   `json:"mode"`
	KeyAlg     string `json:"key_alg"`
	ContentAlg string `json:"content_alg"`
	// WrappedKey is the content key under RSA-OAEP-256 (custom mode only).
	WrappedKey []byte `json:"wrapped_key,omitempty"`
}

// CustomKeyInfo is `encryption_key` in custom mode: which RSA key to use.
type CustomKeyInfo struct {
	Name              string `json:"name"`
	FingerprintSSH    string `json:"fingerprint_ssh"`
	FingerprintSHA256 string `json:"fingerprint_sha256"`
}

// PassphraseKeyInfo is `encryption_key` in passphrase mode: the public part
// of the account's passphrase key (enough to re-derive the private key from
// the passphrase) plus this verification's ephemeral public key.
type PassphraseKeyInfo struct {
	PassphraseKey
	// EphemeralPublicKey is the uncompressed P-256 point (65 bytes) of the
	// one-off key the sealer generated for this verification.
	EphemeralPublicKey []byte `json:"ephemeral_public_key"`
}

// SealedMember replaces a protected member's value: the AES-256-GCM
// encryption of the member's JSON text.
type SealedMember struct {
	Version int    `json:"version"`
	Alg     string `json:"alg"`
	// IV is the 12-byte nonce, fresh and random for every member.
	IV []byte `json:"iv"`
	// Ciphertext is the GCM ciphertext followed by the 16-byte tag.
	Ciphertext []byte `json:"ciphertext"`
}

// check validates the algorithm header against the mode the key implies.
func (e Encryption) check(mode Mode, keyAlg string) error {
	if e.Version != Version {
		return fmt.Errorf("encryption version %d: %w", e.Version, ErrUnsupportedVersion)
	}
	if e.Mode != mode || e.KeyAlg != keyAlg || e.ContentAlg != AlgContent {
		return fmt.Errorf("encryption mode %q key_alg %q content_alg %q, want %q %q %q: %w",
			e.Mode, e.KeyAlg, e.ContentAlg, mode, keyAlg, AlgContent, ErrUnsupportedAlgorithm)
	}
	return nil
}

// ParseSealedMember decodes one envelope and checks its header and lengths.
func ParseSealedMember(raw []byte) (SealedMember, error) {
	var s SealedMember
	if strictErr := strictDecode(raw, &s); strictErr != nil {
		// Classify by the header when it is readable: an unknown member in
		// a newer version's envelope is a version problem, not garbage.
		if err := json.Unmarshal(raw, &s); err != nil || s.Version == Version {
			return s, fmt.Errorf("parse sealed member: %w", strictErr)
		}
	}
	if s.Version == 0 && s.Alg == "" {
		return s, fmt.Errorf("parse sealed member: not a sealed envelope: %w", ErrMalformed)
	}
	if s.Version != Version {
		return s, fmt.Errorf("parse sealed member: version %d: %w", s.Version, ErrUnsupportedVersion)
	}
	if s.Alg != AlgContent {
		return s, fmt.Errorf("parse sealed member: alg %q: %w", s.Alg, ErrUnsupportedAlgorithm)
	}
	if len(s.IV) != nonceSize || len(s.Ciphertext) < tagSize {
		return s, fmt.Errorf("parse sealed member: iv %d bytes, ciphertext %d bytes: %w",
			len(s.IV), len(s.Ciphertext), ErrMalformed)
	}
	return s, nil
}
