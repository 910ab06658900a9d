-- Test mode (issue #22): a verification or integration key is live (test
-- 0) or test (1). Test verifications are never counted against an
-- allowance: the quota indexes, like the statements that use them, hold
-- live slot holders only. An account has one integration key per mode, so
-- integration_keys is rebuilt with UNIQUE (account_id, test) in place of
-- UNIQUE (account_id) (SQLite cannot drop a column constraint).
ALTER TABLE verifications ADD COLUMN test INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1));
DROP INDEX verifications_list;
CREATE INDEX verifications_list ON verifications (account_id, test, created_at DESC, id DESC) WHERE deleted_at IS NULL;
DROP INDEX verifications_quota;
CREATE INDEX verifications_quota ON verifications (account_id, type, created_at)
	WHERE NOT test AND status IN ('pending', 'started', 'completed', 'manual_review');
DROP INDEX verifications_uncounted;
CREATE INDEX verifications_uncounted ON verifications (account_id, type, created_at)
	WHERE quota_period IS NULL AND NOT test AND status IN ('pending', 'started', 'completed', 'manual_review');

CREATE TABLE integration_keys_by_mode (
	id                  TEXT PRIMARY KEY,
	account_id          TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	prefix              TEXT NOT NULL,
	hash                BLOB NOT NULL UNIQUE,
	allowed_domains     TEXT NOT NULL CHECK (json_valid(allowed_domains) AND json_type(allowed_domains) = 'array'),
	rate_limit_per_hour INTEGER NOT NULL,
	created_at          INTEGER NOT NULL,
	updated_at          INTEGER NOT NULL,
	test                INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1)),
	UNIQUE (account_id, test)
) STRICT;
INSERT INTO integration_keys_by_mode (id, account_id, prefix, hash, allowed_domains, rate_limit_per_hour, created_at, updated_at, test)
	SELECT id, account_id, prefix, hash, allowed_domains, rate_limit_per_hour, created_at, updated_at, 0 FROM integration_keys;
DROP TABLE integration_keys;
ALTER TABLE integration_keys_by_mode RENAME TO integration_keys;
