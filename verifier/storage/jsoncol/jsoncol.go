// Package jsoncol encodes the JSON columns the sqlite and postgres stores
// share (jsonb in PostgreSQL, JSON text in SQLite), so both backends write the
// same documents and return the same Go values: an empty list is stored as []
// and comes back as nil, whatever the caller passed.
package jsoncol

import (
	"encoding/json"
	"fmt"
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
