package e2ee

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
)

// contentSalt is the HKDF salt of the passphrase-mode content key; the info
// is the ephemeral then the recipient public key (65 bytes each), binding the
// key to both parties.
const contentSalt = "idgate/e2ee/v1/content-key"

// NewPassphraseSession starts sealing a verification for a passphrase key:
// a fresh ephemeral P-256 key agrees a secret with the account key, and
// HKDF-SHA256 turns it into the content key.
func NewPassphraseSession(key PassphraseKey) (*Session, error) {
	if err := key.Validate(); err != nil {
		return nil, fmt.Errorf("seal passphrase: %w", err)
	}
	recipient, err := key.publicKey()
	if err != nil {
		return nil, fmt.Errorf("seal passphrase: %w", err)
	}
	eph, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("seal passphrase: ephemeral key: %w", err)
	}
	ck, err := agreeContentKey(eph, recipient, eph.PublicKey(), recipient)
	if err != nil {
		return nil, fmt.Errorf("seal passphrase: %w", err)
	}
	info := &PassphraseKeyInfo{PassphraseKey: key, EphemeralPublicKey: eph.PublicKey().Bytes()}
	return newSession(ck, passphraseEncryption(), info)
}

// OpenPassphraseSession opens with the private key DerivePrivateKey gave
// for info.KDF. A key whose public point differs from info.PublicKey came
// from another passphrase and is reported as ErrWrongPassphrase.
func OpenPassphraseSession(priv *ecdh.PrivateKey, enc Encryption, info PassphraseKeyInfo) (*Session, error) {
	if err := enc.check(ModePassphrase, AlgAgreeECDH); err != nil {
		return nil, fmt.Errorf("open passphrase: %w", err)
	}
	if !bytes.Equal(priv.PublicKey().Bytes(), info.PublicKey) {
		return nil, fmt.Errorf("open passphrase: key %q: %w", info.Name, ErrWrongPassphrase)
	}
	eph, err := ecdh.P256().NewPublicKey(info.EphemeralPublicKey)
	if err != nil {
		return nil, fmt.Errorf("open passphrase: ephemeral key is not an uncompressed P-256 point: %w", ErrMalformed)
	}
	ck, err := agreeContentKey(priv, eph, eph, priv.PublicKey())
	if err != nil {
		return nil, fmt.Errorf("open passphrase: %w", err)
	}
	return newSession(ck, enc, &info)
}

// agreeContentKey is HKDF-SHA256(ikm = ECDH x-coordinate, salt = contentSalt,
// info = ephemeral || recipient public key, 32 bytes). Sealer (ephemeral
// private, recipient public) and opener (recipient private, ephemeral public)
// reach the same secret from opposite halves.
func agreeContentKey(priv *ecdh.PrivateKey, peer, eph, recipient *ecdh.PublicKey) ([]byte, error) {
	shared, err := priv.ECDH(peer)
	if err != nil {
		return nil, fmt.Errorf("ECDH: %w", ErrMalformed)
	}
	info := append(append([]byte{}, eph.Bytes()...), recipient.Bytes()...)
	ck, err := hkdf.Key(sha256.New, shared, []byte(contentSalt), string(info), contentKeySize)
	if err != nil {
		return nil, fmt.Errorf("HKDF: %w", err)
	}
	return ck, nil
}

func passphraseEncryption() Encryption {
	return Encryption{Version: Version, Mode: ModePassphrase, KeyAlg: AlgAgreeECDH, ContentAlg: AlgContent}
}
