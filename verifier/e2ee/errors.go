package e2ee

import "errors"

// Sentinel errors. Every failure returned by this package wraps exactly one
// of them (plus the operation), so callers branch with errors.Is and never
// on message text.
var (
	// ErrMalformed: the payload, envelope, key or parameter bytes do not have
	// the documented shape (bad JSON, bad base64, wrong lengths, truncation).
	ErrMalformed = errors.New("e2ee: malformed input")
	// ErrUnsupportedVersion: a version number this code does not implement.
	ErrUnsupportedVersion = errors.New("e2ee: unsupported version")
	// ErrUnsupportedAlgorithm: an algorithm or mode identifier this code does
	// not implement, or one that does not match the key offered.
	ErrUnsupportedAlgorithm = errors.New("e2ee: unsupported algorithm")
	// ErrWrongPassphrase: the passphrase derives a key other than the one the
	// payload was sealed for.
	ErrWrongPassphrase = errors.New("e2ee: wrong passphrase")
	// ErrWrongKey: the private key is not the one the payload was sealed for,
	// or it cannot unwrap the content key.
	ErrWrongKey = errors.New("e2ee: wrong private key")
	// ErrAuthentication: AES-GCM rejected a member; the ciphertext, nonce or
	// associated data (member name) was altered.
	ErrAuthentication = errors.New("e2ee: message authentication failed")
	// ErrWeakKey: an RSA key shorter than MinRSABits or longer than
	// MaxRSABits, or Argon2id parameters below the floor for new keys.
	ErrWeakKey = errors.New("e2ee: key or parameters out of range")
	// ErrNotEncrypted: the payload carries no encryption object.
	ErrNotEncrypted = errors.New("e2ee: payload is not encrypted")
	// ErrPrivateKey: a private key was given where a public one belongs. It
	// is told apart from ErrMalformed because its holder must learn that the
	// key has left their hands, not only that it was refused.
	ErrPrivateKey = errors.New("e2ee: a private key where a public key belongs")
)
