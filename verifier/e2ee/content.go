package e2ee

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
)

const (
	contentKeySize = 32 // AES-256
	nonceSize      = 12 // GCM standard nonce
	tagSize        = 16 // GCM full-length tag
)

// Session holds one verification's content key. A sealing session comes from
// NewCustomSession or NewPassphraseSession; an opening session from
// OpenCustomSession or OpenPassphraseSession. Both seal and open members.
type Session struct {
	aead cipher.AEAD
	// Encryption and EncryptionKey are the payload's `encryption` and
	// `encryption_key` objects (EncryptionKey is *CustomKeyInfo or
	// *PassphraseKeyInfo).
	Encryption    Encryption
	EncryptionKey any
}

func newSession(key []byte, enc Encryption, info any) (*Session, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("content key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("content key: %w", err)
	}
	return &Session{aead: aead, Encryption: enc, EncryptionKey: info}, nil
}

// SealMember encrypts the JSON text of a protected member with a fresh
// random nonce and the member name as associated data.
func (s *Session) SealMember(member string, plaintext []byte) (SealedMember, error) {
	nonce := make([]byte, nonceSize)
	if _, err := rand.Read(nonce); err != nil {
		return SealedMember{}, fmt.Errorf("seal %s: nonce: %w", member, err)
	}
	return SealedMember{
		Version:    Version,
		Alg:        AlgContent,
		IV:         nonce,
		Ciphertext: s.aead.Seal(nil, nonce, plaintext, []byte(member)),
	}, nil
}

// OpenMember authenticates and decrypts a member sealed under this session's
// content key for the same member name.
func (s *Session) OpenMember(member string, env SealedMember) ([]byte, error) {
	if len(env.IV) != nonceSize || len(env.Ciphertext) < tagSize {
		return nil, fmt.Errorf("open %s: %w", member, ErrMalformed)
	}
	pt, err := s.aead.Open(nil, env.IV, env.Ciphertext, []byte(member))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", member, ErrAuthentication)
	}
	return pt, nil
}

func newContentKey() ([]byte, error) {
	k := make([]byte, contentKeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("content key: %w", err)
	}
	return k, nil
}
