package verifier

import (
	"errors"
	"net/mail"
	"strings"
)

// NormalizeEmail is the form e-mails are stored and looked up in.
func NormalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

const maxEmailLen = 254 // RFC 5321 path limit

// ValidateEmail: email (normalized) is one plain address of at most 254
// characters, as accounts are made with.

func ValidateEmail(email string) error {
	if len(email) > maxEmailLen {
		return errors.New("longer than 254 characters")
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return errors.New("not a plain e-mail address (name@example.com)")
	}
	return nil
}
