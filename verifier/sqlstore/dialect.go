package sqlstore

import (
	"regexp"
	"strings"
)

// dialect is what really differs between PostgreSQL and SQLite; every
// statement is written once, in PostgreSQL's syntax, and stmt derives the
// SQLite text from it when the package loads.
type dialect struct {
	name string
	id   int // index into stmt
	// schemaMigrations creates the migrations table.
	schemaMigrations string
	// hasSchemaMigrations tells whether that table exists yet.
	hasSchemaMigrations string
	// lockMigrations and lockRetry take a lock held until the transaction
	// ends, so two migrators, or two retries of one verification's
	// deliveries, run one after the other. SQLite needs none: its write
	// transactions (BEGIN IMMEDIATE) already exclude each other.
	lockMigrations, lockRetry string
	// claimAndInsert, when set, is the quota fast path as one statement
	// (claimAndInsertSQL: one drawn stripe, then any free one; without and
	// with the template check);
	// SQLite, which has no data-modifying WITH, runs its two statements in
	// a transaction, which costs it nothing: its writer is in-process and
	// alone, so it has no held stripe to skip or wait for either.
	claimAndInsert *[2][2]string
	// getVerifications, when set, reads up to getBatchMax verifications
	// by ID at once ($1 an array of exactly that many), for getBatcher.
	// SQLite needs no batching: its reads are in-process calls, with no
	// round trip or statement set-up to share.
	getVerifications string
}

const (
	pgID = iota
	sqliteID
)

var postgresDialect = dialect{
	name: "postgres",
	id:   pgID,
	schemaMigrations: `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`,
	hasSchemaMigrations: `SELECT to_regclass('schema_migrations') IS NOT NULL`,
	// The first half of the key is "idgt"; the second is the schema, so
	// databases migrated side by side in different schemas (as the tests
	// do) do not wait for each other.
	lockMigrations: `SELECT pg_advisory_xact_lock(1768187764, hashtext(current_schema()))`,
	lockRetry:      `SELECT pg_advisory_xact_lock(hashtext('webhook_retry'), hashtext($1))`,
	claimAndInsert: &claimAndInsertSQL,
	getVerifications: `SELECT v.* FROM unnest($1::uuid[]) AS k(key_id) CROSS JOIN LATERAL (
		SELECT ` + verificationReadCols + `, deleted_at IS NULL FROM verifications WHERE id = k.key_id OFFSET 0) v`,
}

var sqliteDialect = dialect{
	name: "sqlite",
	id:   sqliteID,
	schemaMigrations: `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
	) STRICT`,
	hasSchemaMigrations: `SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`,
}

// stmt is one statement in each dialect's text, indexed by dialect.id.
type stmt [2]string

// q makes a stmt from PostgreSQL text. Only package-level statements use
// it, so the rewriting runs once, at load.
func q(pg string) stmt { return stmt{pgID: pg, sqliteID: toSQLite(pg)} }

// sqliteRewrites turn our PostgreSQL statements into SQLite's, which share
// $n placeholders, RETURNING, ON CONFLICT and partial indexes:
//   - row locks go: a SQLite write transaction already holds the database,
//     and SKIP LOCKED has nothing to skip;
//   - casts go: columns carry their types, and SQLite compares text to text;
//   - the outbox's insertion order is seq in PostgreSQL, rowid in SQLite;
//   - octet_length of a blob is length; least and greatest are min and max.
var sqliteRewrites = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\s+FOR (NO KEY )?UPDATE( SKIP LOCKED)?`), ""},
	{regexp.MustCompile(`::[a-z]+`), ""},
	{regexp.MustCompile(`\bseq\b`), "rowid"},
	{regexp.MustCompile(`\boctet_length\(`), "length("},
	{regexp.MustCompile(`\bleast\(`), "min("},
	{regexp.MustCompile(`\bgreatest\(`), "max("},
}

func toSQLite(pg string) string {
	for _, r := range sqliteRewrites {
		pg = r.re.ReplaceAllString(pg, r.with)
	}
	if strings.Contains(pg, "pg_") {
		panic("sqlstore: PostgreSQL-only function in a shared statement: " + pg)
	}
	return pg
}
