package e2ee

import (
	"crypto/ecdh"
	"crypto/rsa"
	"fmt"
	"sync"
)

// Opener turns a payload's header into an opening session: the holder's side
// of one mode, chosen by the key the holder has.
type Opener func(Header) (*Session, error)

// OpenPayload reads the header, opens the session and decrypts every sealed
// member of a result payload.
func OpenPayload(payload []byte, open Opener) ([]byte, error) {
	h, err := ReadHeader(payload)
	if err != nil {
		return nil, err
	}
	s, err := open(h)
	if err != nil {
		return nil, err
	}
	return s.OpenPayload(payload)
}

// CustomOpener opens custom-mode payloads with an RSA private key.
func CustomOpener(priv *rsa.PrivateKey) Opener {
	return func(h Header) (*Session, error) {
		if h.Custom == nil {
			return nil, fmt.Errorf("open: payload is %s mode, have an RSA private key: %w", h.Encryption.Mode, ErrUnsupportedAlgorithm)
		}
		return OpenCustomSession(priv, h.Encryption, *h.Custom)
	}
}

// PassphraseOpener opens passphrase-mode payloads. Argon2id is deliberately
// slow, so derived keys are remembered per public key for the opener's life.
func PassphraseOpener(passphrase []byte) Opener {
	var mu sync.Mutex
	derived := map[string]*ecdh.PrivateKey{}
	return func(h Header) (*Session, error) {
		if h.Passphrase == nil {
			return nil, fmt.Errorf("open: payload is %s mode, have a passphrase: %w", h.Encryption.Mode, ErrUnsupportedAlgorithm)
		}
		info := *h.Passphrase
		cacheKey := string(info.PublicKey) + string(info.KDF.Salt) +
			fmt.Sprint(info.KDF.MemoryKiB, info.KDF.Iterations, info.KDF.Parallelism)
		mu.Lock()
		priv, ok := derived[cacheKey]
		mu.Unlock()
		if !ok {
			var err error
			if priv, err = DerivePrivateKey(passphrase, info.KDF); err != nil {
				return nil, fmt.Errorf("open passphrase: %w", err)
			}
			mu.Lock()
			derived[cacheKey] = priv
			mu.Unlock()
		}
		return OpenPassphraseSession(priv, h.Encryption, info)
	}
}
