package proxy

import (
	"encoding/json"
	"fmt"

	"github.com/idgate/idgate/internal/strictjson"
)

// InputError is a bad input member; it wraps ErrInvalidInput and names the
// member, so the HTTP layer can answer with one validation detail.
type InputError struct {
	Field   string // e.g. "cart_id", "external_id"
	Code    string // the detail's code; "" is "invalid"
	Message string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s: %v: %s", e.Field, ErrInvalidInput, e.Message)
}

func (e *InputError) Unwrap() error { return ErrInvalidInput }

// DecodeStrict unmarshals a JSON body into v after refusing what
// encoding/json would silently accept (duplicate keys, invalid UTF-8, a
// member name matching a field only when case is ignored), so
// the proxy reads a body exactly as the verifier and BigCommerce meant it.
// what names the body in the error ("a BigCommerce webhook payload").
func DecodeStrict(body []byte, v any, what string) error {
	if d := strictjson.Check(body); d != nil {
		return &InputError{Field: d.Field, Code: d.Code, Message: d.Message}
	}
	if d := strictjson.CheckNames(body, v); d != nil {
		return &InputError{Field: d.Field, Code: d.Code, Message: d.Message}
	}
	if !json.Valid(body) {
		return fmt.Errorf("%w: not %s", ErrMalformedJSON, what)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return &InputError{Field: "body", Message: "not " + what}
	}
	return nil
}
