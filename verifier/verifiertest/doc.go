// Package verifiertest runs the real verifier for tests: a migrated store
// (SQLite in the test's directory unless given), the HTTP server of
// verifier/http on loopback, the end-user flow (on the real engines of
// verifier/engines/enginestest), the webhook worker, and
// accounts signed in through POST /auth. It is to the verifier what
// proxy/proxytest is to the proxy; the tests of verifier/http itself cannot
// use it (it imports that package).
//
// Where to look: verifier.go (Options; Start in tests, New for the
// benchmarks of bench/internal/loopback; Account, RunWebhooks).
package verifiertest
