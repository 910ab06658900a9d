// Package parts assembles the verifier's parts below its HTTP server for
// tests: migrated stores on SQLite and PostgreSQL, the API's token keys,
// accounts, the end-user flow wired to a store, and the webhook worker.
//
// It exists because of one import cycle: verifier/verifiertest runs the
// whole verifier and so imports verifier/http, whose own tests live inside
// that package (they reach its unexported server) and therefore cannot
// import verifiertest. Both build on this package instead, so the parts are
// assembled in one place; what stays in verifier/http's harness is its own
// server construction and client (OpenAPI-checked calls).
//
// Where to look: store.go (Open, OpenSQLite, OpenPostgres, Backends,
// OnBothBackends), tokens.go, account.go, flow.go (Flow), webhook.go
// (Worker).
package parts
