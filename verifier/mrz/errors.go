package mrz

import "errors"

// The coded errors of Parse, wrapped with the field they concern
// ("mrz: document number: ...: %w"); errors.Is tells them apart.
var (
	// ErrFormat: not a TD1 or TD3 zone: wrong number or length of lines, a
	// character outside A-Z, 0-9 and '<', or a character the field cannot
	// hold that no look-alike explains (a '7' in a name).
	ErrFormat = errors.New("not a machine-readable zone")
	// ErrCheckDigit: a check digit does not hold and no look-alike
	// correction makes it hold. The zone was misread: take another photo.
	ErrCheckDigit = errors.New("check digit does not match")
	// ErrAmbiguous: the check digit fails as read and more than one
	// look-alike correction makes it hold; which one is printed is unknown,
	// so none is chosen.
	ErrAmbiguous = errors.New("more than one reading passes the check digit")
	// ErrField: the check digits hold but a field's value is impossible (a
	// 13th month, a sex other than M, F, X or unspecified, a document code
	// of another format, an issuing state or nationality that is no code:
	// codes.go).
	ErrField = errors.New("invalid field value")
)
