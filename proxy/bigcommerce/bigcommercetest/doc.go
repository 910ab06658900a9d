// Package bigcommercetest is an in-memory BigCommerce Management API for
// tests and the local demo. In tests, every request it receives and every
// response it returns is validated against BigCommerce's own OpenAPI
// documents; a mismatch is reported through Options.OnViolation (t.Errorf
// in tests), so a client that drifts from the contract fails its tests even
// when the double could have answered it. The demo runs without the
// documents and serves the same operations unchecked.
//
// Where to look: double.go (Double, New, faults to inject), testing.go (Start
// for tests, and a Clock), contracts.go (the OpenAPI validation),
// operations.go, metafields.go and other.go (the operations served),
// state.go (what the double holds: metafields, scripts, webhooks, orders).
package bigcommercetest
