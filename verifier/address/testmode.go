package address

import (
	"context"
	"regexp"
	"strings"
)

// Test mode (docs/test-mode.md). A test verification's address check never reaches
// the configured provider (Lob bills each check, and a tester's walk is no
// customer's), whatever IDGATE_ADDRESS_PROVIDER says: the flow chooses
// TestProvider by the verification's mode, as it chooses
// phone.TestProvider for the phone step.

// postal is a well-formed US ZIP (ZIP+4) or Canadian postal code.
var postal = regexp.MustCompile(`^([0-9]{5}(-[0-9]{4})?|[A-Z][0-9][A-Z] ?[0-9][A-Z][0-9])$`)

// WellFormed is the address's form alone: a street line and a well-formed
// US ZIP or Canadian postal code. It is what the stand-ins (TestProvider,
// the dev provider) call deliverable; it checks nothing real.
func WellFormed(q Query) bool {
	return strings.TrimSpace(q.Line1) != "" && postal.MatchString(strings.ToUpper(strings.TrimSpace(q.PostalCode)))
}

// TestProvider is the Provider of test verifications: deliverable when
// WellFormed, no names matched. No state, no I/O.
type TestProvider struct{}

// Name is "test".
func (TestProvider) Name() string { return "test" }

// Verify answers from the address's form.
func (TestProvider) Verify(_ context.Context, q Query) (Result, error) {
	return Result{Deliverable: WellFormed(q)}, nil
}
