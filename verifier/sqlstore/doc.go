// Package sqlstore is the verifier's one SQL store: verifier.Store and the
// webhook delivery outbox (webhook.Queue) over database/sql, on PostgreSQL
// (pgx's stdlib driver) or on an embedded SQLite file (modernc.org/sqlite,
// pure Go). Every statement is written once; the few things that differ are
// in dialect.go, and the schema is in migrations/<dialect> (and migrations/both, for DDL one
// text serves).
//
// Open picks the dialect from the DSN and migrates:
//   - postgres://... or postgresql://...  PostgreSQL (pgx URL syntax; pool
//     settings such as pool_max_conns go in its query)
//   - sqlite:PATH, sqlite://PATH          SQLite file at PATH
//     (sqlite:///abs/path is absolute, sqlite:var/idgate.db relative)
//   - PATH                                a plain file path: SQLite
//
// Any other scheme ("mysql://...") is refused rather than taken for a file
// name. The SQLite file's parent directory is created (0700) if missing.
//
// Concurrency: on PostgreSQL, updaters lock their row (SELECT ... FOR
// UPDATE), the sweeper and the webhook claim skip rows others hold (SKIP
// LOCKED), so instances share work without waiting on each other. On
// SQLite, all writes go through a pool of exactly one connection whose
// transactions start with BEGIN IMMEDIATE, so in-process writers queue in
// database/sql, and writers in other processes (an `idgate account create`
// beside a running server) wait up to BusyTimeout for the write lock; reads
// use a read-only pool and never block the writer (WAL).
//
// Times are UTC, truncated to microseconds: timestamptz in PostgreSQL,
// INTEGER microseconds since the Unix epoch in SQLite (the driver writes
// time.Time arguments so; scanTime reads either).
//
// Where to look: sqlstore.go (DB, Open), dsn.go and dialect.go (the two
// databases), migrate.go and migrations/ (the schema), one file per kind of
// record (accounts.go, keys.go, verifications.go, templates.go,
// passphrasekeys.go, dashsessions.go, quota.go), flow.go (flow.Store),
// outbox.go (webhook.Queue).
package sqlstore
