package e2ee

import "fmt"

// Mode is a verification's encryption_key_mode.
type Mode string

const (
	ModePassphrase Mode = "passphrase" // sealed for an account passphrase key
	ModeCustom     Mode = "custom"     // sealed for a caller-supplied RSA key
	ModeNone       Mode = "none"       // plaintext, filtered by the caller
	// ModeShared is legacy: only verifications created before passphrase
	// keys existed carry it, and new verifications must refuse it.
	ModeShared Mode = "shared"
)

// SharedPlaceholder replaces every protected member of a ModeShared result in
// API and webhook responses; the data is viewable only on the dashboard.
const SharedPlaceholder = "Encrypted with the legacy shared key: view this data on the dashboard."

// ParseMode accepts the four documented mode names.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModePassphrase, ModeCustom, ModeNone, ModeShared:
		return m, nil
	}
	return "", fmt.Errorf("parse encryption mode %q: %w", s, ErrUnsupportedAlgorithm)
}

// Sealed reports whether the mode puts ciphertext in the payload.
func (m Mode) Sealed() bool { return m == ModePassphrase || m == ModeCustom }
