package proxy

import "fmt"

// InputError is a bad input member; it wraps ErrInvalidInput and names the
// member, so the HTTP layer can answer with one validation detail.
type InputError struct {
	Field   string // e.g. "cart_id", "external_id"
	Message string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s: %v: %s", e.Field, ErrInvalidInput, e.Message)
}

func (e *InputError) Unwrap() error { return ErrInvalidInput }
