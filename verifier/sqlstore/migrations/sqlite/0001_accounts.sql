-- Accounts and their one integration key. Times are INTEGER microseconds
-- since the Unix epoch, UTC.
CREATE TABLE accounts (
	id            TEXT PRIMARY KEY,
	email         TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL,
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE integration_keys (
	id                  TEXT PRIMARY KEY,
	account_id          TEXT NOT NULL UNIQUE REFERENCES accounts (id) ON DELETE CASCADE,
	prefix              TEXT NOT NULL,
	hash                BLOB NOT NULL UNIQUE,
	allowed_domains     TEXT NOT NULL CHECK (json_valid(allowed_domains) AND json_type(allowed_domains) = 'array'),
	rate_limit_per_hour INTEGER NOT NULL,
	created_at          INTEGER NOT NULL,
	updated_at          INTEGER NOT NULL
) STRICT;
