// Package webhook delivers verification results to the account holder's
// webhook_url: signed, SSRF-safe, retried on a fixed schedule (immediately,
// +5 s, +15 s; policy.go) from a durable outbox that survives restarts.
//
// The outbox is a table of deliveries written in the same transaction as the
// verification's state change (verifier/sqlstore, on PostgreSQL or SQLite).
// A Worker claims due deliveries with a lease, performs one attempt each
// through a Sender and records the outcome, the attempt log row and the next
// attempt time in one transaction. Every query takes the time from the
// caller, so tests drive the schedule with an explicit clock.
//
// Why an outbox of our own rather than riverqueue/river (v0.31, in go.mod):
// river's SQLite driver calls itself early-stage and wants a pool of one
// connection of its own, while our embedded default shares the store's
// single writer; a failed river job cannot write our tables in the same
// transaction that schedules its retry (JobCompleteTx covers success only),
// so webhook_status and the attempt log would lag the queue after a crash;
// and river's producer and scheduler run on wall-clock timers, which tests
// would have to sleep through. The outbox is two tables and a handful of
// statements per backend, and enqueueing is a plain INSERT in the caller's
// transaction.
//
// Guarantees: a delivery exists iff its state change committed; at most one
// attempt of a delivery runs at a time across all instances (the claim
// lease, DefaultLease, outlasts an attempt's Timeout); a recorded success is
// never sent again; delivery is at least once (a crash after the POST but
// before the commit repeats that attempt, same Idgate-Delivery-Id and
// Idgate-Attempt). Instances must keep their clocks in sync (NTP) to well
// within the lease margin, since leases compare application clocks.
//
// At rest, a delivery holds the result payload and the custom headers
// (often the receiver's credentials) in plain text, as the verification
// itself does; signing secrets are sealed (internal/seal). Once a delivery has
// been delivered for the worker's Retention (a day by default) its payload
// and headers are emptied; failed ones keep theirs for a manual retry until
// retried or the verification is deleted.
//
// Where to look: webhook.go (Delivery, Queue, the attempt records),
// worker.go (Worker), sender.go (Sender: one signed POST), signature.go and
// keys.go (signing and secret rotation), ssrf.go and host.go (refusing
// private targets), policy.go (the retry schedule), headers.go (custom
// headers).
package webhook
