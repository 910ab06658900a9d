// Package client is the public Go package for integrators of idgate.
// decrypt.go opens end-to-end encrypted results (docs/encryption.md).
package client

import (
	"encoding/json"
	"fmt"

	"github.com/idgate/idgate/verifier/e2ee"
)

// Errors Decrypt wraps; branch on them with errors.Is.
var (
	// ErrNotEncrypted: the payload has no `encryption` object (mode none,
	// legacy shared, or a GET body without a result yet).
	ErrNotEncrypted = e2ee.ErrNotEncrypted
	// ErrWrongPassphrase: the passphrase derives another key than the one
	// the result was sealed for.
	ErrWrongPassphrase = e2ee.ErrWrongPassphrase
	// ErrWrongKey: the RSA private key is not the one the result names.
	ErrWrongKey = e2ee.ErrWrongKey
	// ErrAuthentication: ciphertext, nonce, wrapped key or member placement
	// was altered after sealing.
	ErrAuthentication = e2ee.ErrAuthentication
	// ErrMalformed: the payload or key does not have the documented shape.
	ErrMalformed = e2ee.ErrMalformed
	// ErrUnsupportedVersion / ErrUnsupportedAlgorithm: a newer format, or
	// the wrong kind of key for the payload's mode.
	ErrUnsupportedVersion   = e2ee.ErrUnsupportedVersion
	ErrUnsupportedAlgorithm = e2ee.ErrUnsupportedAlgorithm
)

// Key is what the account holder decrypts with: the RSA private key of a
// custom key, or the passphrase of a passphrase key.
type Key struct {
	open e2ee.Opener
}

// PrivateKey reads an unencrypted PEM RSA private key (PKCS#8 "PRIVATE KEY"
// or PKCS#1 "RSA PRIVATE KEY") for custom-mode results.
func PrivateKey(pemBytes []byte) (Key, error) {
	priv, err := e2ee.ParseRSAPrivateKey(pemBytes)
	if err != nil {
		return Key{}, err
	}
	return Key{open: e2ee.CustomOpener(priv)}, nil
}

// Passphrase is a passphrase key's passphrase, used exactly as given (its
// UTF-8 bytes). The private key derived from it (Argon2id, about 0.2 s and
// 64 MiB at default cost) is remembered, so reuse one Key for many results.
func Passphrase(passphrase string) Key {
	return Key{open: e2ee.PassphraseOpener([]byte(passphrase))}
}

// Decrypt takes a webhook body (the result payload) or a GET /verification
// response body (which holds it under `result`) and returns the same JSON
// with license_data, phone_verification.lookup and license_photo decrypted
// and the `encryption` object removed; `encryption_key` stays to show which
// key the data was sealed for. Members are re-serialised in sorted order.
func Decrypt(payload []byte, key Key) ([]byte, error) {
	if key.open == nil {
		return nil, fmt.Errorf("decrypt: zero Key: %w", ErrMalformed)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(payload, &top); err != nil || top == nil {
		return nil, fmt.Errorf("decrypt: payload is not a JSON object: %w", ErrMalformed)
	}
	if _, isResult := top["encryption"]; isResult {
		out, err := e2ee.OpenPayload(payload, key.open)
		if err != nil {
			return nil, fmt.Errorf("decrypt: %w", err)
		}
		return out, nil
	}
	result, ok := top["result"]
	if !ok {
		return nil, fmt.Errorf("decrypt: %w", ErrNotEncrypted)
	}
	opened, err := e2ee.OpenPayload(result, key.open)
	if err != nil {
		return nil, fmt.Errorf("decrypt result: %w", err)
	}
	top["result"] = opened
	out, err := json.Marshal(top)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	return out, nil
}
