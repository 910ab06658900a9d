package phone

import "context"

// Test mode (docs/test-mode.md). A test verification's phone step never reaches
// the configured provider, so it never sends a real SMS and never costs
// anything, whatever IDGATE_PHONE_PROVIDER says: the flow chooses
// TestProvider by the verification's mode, not by configuration. Its code
// is always TestCode, and a few magic numbers give the negative outcomes,
// as Stripe's and Twilio's test credentials do. Every limit (sends, resend
// delay, code lifetime, wrong codes, lookups) counts as on a live link.

// TestCode is the one code a test verification's phone step sends (in
// nothing) and accepts; any other six digits is a wrong code.
const TestCode = "000000"

// Magic numbers of test verifications (555-01xx is reserved for fiction).
// Any other valid number that can take an SMS is accepted: looked up as a
// mobile of "Test Carrier", its code is TestCode.
const (
	// TestNumberLandline is looked up as a landline: phone_not_mobile.
	TestNumberLandline = "+12175550100"
	// TestNumberUndeliverable is refused at sending: phone_undeliverable.
	TestNumberUndeliverable = "+12175550101"
	// TestNumberUnavailable finds the provider down: 503 with Retry-After,
	// the send given back.
	TestNumberUnavailable = "+12175550102"
)

// TestCarrier and TestCallerName are the lookup of every accepted test
// number: the test fixture's holder on a mobile line.
const (
	TestCarrier    = "Test Carrier"
	TestCallerName = "SAMPLE ALEX"
)

// TestProvider is the Provider of test verifications: it sends nothing and
// answers from the magic numbers. It has no state and no I/O.
type TestProvider struct{}

// Name is "test".
func (TestProvider) Name() string { return "test" }

// Lookup: TestNumberLandline is a landline; every other number a mobile
// of TestCarrier held by TestCallerName.
func (TestProvider) Lookup(_ context.Context, n Number) (Lookup, error) {
	if n.E164 == TestNumberLandline {
		return Lookup{LineType: LineLandline, CarrierName: TestCarrier}, nil
	}
	return Lookup{LineType: LineMobile, CallerName: TestCallerName, CarrierName: TestCarrier}, nil
}

// Send sends nothing: TestNumberUndeliverable is ErrUndeliverable,
// TestNumberUnavailable ErrUnavailable, every other number succeeds.
func (TestProvider) Send(_ context.Context, n Number, _, _ string) (string, error) {
	switch n.E164 {
	case TestNumberUndeliverable:
		return "", ErrUndeliverable
	case TestNumberUnavailable:
		return "", ErrUnavailable
	}
	return "test", nil
}

// Confirm records nothing: there is no provider to tell.
func (TestProvider) Confirm(context.Context, string) error { return nil }
