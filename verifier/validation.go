// validation.go: the domain's one error for input that breaks rules, listing
// every broken rule (internal/problem.Detail) so the API can answer them all
// at once.

package verifier

import (
	"errors"
	"strings"
	"unicode"

	"github.com/idgate/idgate/internal/problem"
)

// ErrInvalid marks input that breaks a domain rule; *ValidationError
// (errors.As) carries the fields.
var ErrInvalid = errors.New("invalid input")

// ValidationError lists every broken rule of one input.
type ValidationError struct {
	Fields []problem.Detail
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Field + ": " + f.Message
	}
	return "invalid input: " + strings.Join(parts, "; ")
}

func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// controlFree tells whether s has no control character (nor the Unicode
// line and paragraph separators), a line break (\n) allowed when lines is
// set: text a person reads (a message, a name, a reviewer's reason) must
// not carry terminal escapes or NULs, which PostgreSQL's text refuses.
func controlFree(s string, lines bool) bool {
	for _, r := range s {
		if (r != '\n' || !lines) && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029') {
			return false
		}
	}
	return true
}
