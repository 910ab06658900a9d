package bigcommerce

import (
	"fmt"
	"io"
)

// Secret holds a credential (the store access token, the app client
// secret). Every way of printing it prints a placeholder, so a Config or a
// struct embedding one can be logged or wrapped into an error without
// leaking it.
type Secret string

const redacted = "[redacted]"

// String implements fmt.Stringer.
func (Secret) String() string { return redacted }

// GoString implements fmt.GoStringer (%#v).
func (Secret) GoString() string { return redacted }

// Format covers every verb, %x and %q included.
func (Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, redacted) }

// MarshalJSON keeps the secret out of JSON dumps too.
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }
