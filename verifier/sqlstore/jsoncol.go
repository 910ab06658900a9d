package sqlstore

// The JSON columns (jsonb or json in PostgreSQL, JSON text in SQLite) are
// encoded and checked here, so both dialects write the same documents and
// return the same Go values: an empty list is stored as [] and comes back as
// nil, whatever the caller passed.

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/idgate/idgate/verifier"
)

// stringList encodes v as a JSON array; nil becomes [].
func stringList(v []string) []byte {
	if len(v) == 0 {
		return []byte("[]")
	}
	b, _ := json.Marshal(v) // []string always marshals
	return b
}

// parseStringList decodes a JSON array of strings; [] becomes nil.
func parseStringList(b []byte) ([]string, error) {
	var v []string
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode string list: %w", err)
	}
	if len(v) == 0 {
		return nil, nil
	}
	return v, nil
}

// stringMap encodes v as a JSON object; nil becomes {}.
func stringMap(v map[string]string) []byte {
	if len(v) == 0 {
		return []byte("{}")
	}
	b, _ := json.Marshal(v) // map[string]string always marshals
	return b
}

// parseStringMap decodes a JSON object of strings; {} becomes nil.
func parseStringMap(b []byte) (map[string]string, error) {
	var v map[string]string
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode string map: %w", err)
	}
	if len(v) == 0 {
		return nil, nil
	}
	return v, nil
}

// rawJSON is an opaque JSON document as a column value: NULL when empty,
// otherwise its exact text.
func rawJSON(v json.RawMessage) any {
	if len(v) == 0 {
		return nil
	}
	return string(v)
}

// validJSON checks an opaque JSON document before it is written, so a bad one
// is the caller's error (verifier.ErrInvalid) on both dialects rather than a
// driver error on one.
func validJSON(field string, v json.RawMessage) error {
	if len(v) != 0 && !json.Valid(v) {
		return fmt.Errorf("%w: %s is not valid JSON", verifier.ErrInvalid, field)
	}
	return nil
}

// validVerification checks v's opaque JSON fields and its type.
func validVerification(v verifier.Verification) error {
	if !v.Type.Valid() {
		return fmt.Errorf("%w: unknown verification type %q", verifier.ErrInvalid, v.Type)
	}
	return errors.Join(validJSON("options", v.Options), validJSON("result", v.Result))
}
