package e2ee

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"fmt"
)

// NewCustomSession starts sealing a verification for a custom RSA key: a
// fresh content key wrapped with RSA-OAEP-256 (empty label).
func NewCustomSession(pub *rsa.PublicKey, name string) (*Session, error) {
	if err := checkRSASize(pub); err != nil {
		return nil, fmt.Errorf("seal custom: %w", err)
	}
	if err := ValidateName(name); err != nil {
		return nil, fmt.Errorf("seal custom: %w", err)
	}
	info, err := NewCustomKeyInfo(pub, name)
	if err != nil {
		return nil, fmt.Errorf("seal custom: %w", err)
	}
	key, err := newContentKey()
	if err != nil {
		return nil, fmt.Errorf("seal custom: %w", err)
	}
	wrapped, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub, key, nil)
	if err != nil {
		return nil, fmt.Errorf("seal custom: wrap content key: %w", err)
	}
	enc := Encryption{Version: Version, Mode: ModeCustom, KeyAlg: AlgWrapRSA, ContentAlg: AlgContent, WrappedKey: wrapped}
	return newSession(key, enc, &info)
}

// OpenCustomSession unwraps the content key with the holder's private key.
// A key whose fingerprint differs from the payload's is refused before any
// RSA operation, so "wrong key" is reported as such.
func OpenCustomSession(priv *rsa.PrivateKey, enc Encryption, info CustomKeyInfo) (*Session, error) {
	if err := enc.check(ModeCustom, AlgWrapRSA); err != nil {
		return nil, fmt.Errorf("open custom: %w", err)
	}
	have, err := FingerprintSHA256(&priv.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("open custom: %w", err)
	}
	if info.FingerprintSHA256 != have {
		return nil, fmt.Errorf("open custom: payload sealed for key %s (%q), not %s: %w",
			info.FingerprintSHA256, info.Name, have, ErrWrongKey)
	}
	if len(enc.WrappedKey) != priv.Size() {
		return nil, fmt.Errorf("open custom: wrapped key is %d bytes, want %d: %w",
			len(enc.WrappedKey), priv.Size(), ErrMalformed)
	}
	key, err := rsa.DecryptOAEP(sha256.New(), nil, priv, enc.WrappedKey, nil)
	if err != nil {
		// The fingerprint matched, so the wrapped key itself was altered.
		return nil, fmt.Errorf("open custom: unwrap content key: %w", ErrAuthentication)
	}
	if len(key) != contentKeySize {
		return nil, fmt.Errorf("open custom: content key is %d bytes: %w", len(key), ErrMalformed)
	}
	return newSession(key, enc, &info)
}
