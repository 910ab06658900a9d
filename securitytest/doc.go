// Package securitytest is the attacker's view of the verifier, kept in the
// repository so what it found stays fixed (docs/security.md). Its test starts the
// real server (SQLite, and PostgreSQL when reachable) with two accounts,
// reads the server's own /openapi.json and walks every operation with every
// probe that applies: no credentials, forged and expired tokens, the
// integration key where only a bearer token is allowed, the other
// account's ids of every object kind (which must come back untouched),
// unknown link tokens, and malformed bodies. Every answer must be a 4xx in
// the one error format, within a bounded time. Operations join the walk as
// they are added to the document. The storefront proxy gets the same walk
// (proxy_test.go): its own /openapi.json, two stores as the two tenants,
// on the in-process cache and on Redis.
package securitytest
