// Package jsoncol encodes and checks the JSON columns the sqlite and postgres stores
// share (jsonb in PostgreSQL, JSON text in SQLite), so both backends write the
// same documents and return the same Go values: an empty list is stored as []
// and comes back as nil, whatever the caller passed.
package jsoncol

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

// StringList encodes v as a JSON array; nil becomes [].
func StringList(v []string) []byte {
	if len(v) == 0 {
		return []byte("[]")
	}
	b, _ := json.Marshal(v) // []string always marshals
	return b
}

// ParseStringList decodes a JSON array of strings; [] becomes nil.
func ParseStringList(b []byte) ([]string, error) {
	var v []string
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode string list: %w", err)
	}
	if len(v) == 0 {
		return nil, nil
	}
	return v, nil
}

// StringMap encodes v as a JSON object; nil becomes {}.
func StringMap(v map[string]string) []byte {
	if len(v) == 0 {
		return []byte("{}")
	}
	b, _ := json.Marshal(v) // map[string]string always marshals
	return b
}

// ParseStringMap decodes a JSON object of strings; {} becomes nil.
func ParseStringMap(b []byte) (map[string]string, error) {
	var v map[string]string
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode string map: %w", err)
	}
	if len(v) == 0 {
		return nil, nil
	}
	return v, nil
}

// Raw is an opaque JSON document as a column value: NULL when empty,
// otherwise its exact text.
func Raw(v json.RawMessage) any {
	if len(v) == 0 {
		return nil
	}
	return string(v)
}

// Valid checks an opaque JSON document before it is written, so a bad one
// is the caller's error (verifier.ErrInvalid) on every backend rather than a
// driver error on one.
func Valid(field string, v json.RawMessage) error {
	if len(v) != 0 && !json.Valid(v) {
		return fmt.Errorf("%w: %s is not valid JSON", verifier.ErrInvalid, field)
	}
	return nil
}

// ValidVerification checks v's opaque JSON fields and its type.
func ValidVerification(v verifier.Verification) error {
	if !v.Type.Valid() {
		return fmt.Errorf("%w: unknown verification type %q", verifier.ErrInvalid, v.Type)
	}
	return errors.Join(Valid("options", v.Options), Valid("result", v.Result))
}
