-- Verifications and templates. Times are INTEGER microseconds since the Unix
-- epoch, UTC; NULL means "not yet". options, result and settings are opaque
-- JSON kept byte for byte. Deleted verifications stay (deleted_at set) so a
-- completed one keeps counting against its allowance.
CREATE TABLE templates (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	settings   TEXT CHECK (settings IS NULL OR json_valid(settings)),
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX templates_by_account ON templates (account_id, created_at, id);

CREATE TABLE verifications (
	id              TEXT PRIMARY KEY,
	account_id      TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	token_hash      BLOB NOT NULL UNIQUE,
	status          TEXT NOT NULL CHECK (status IN ('pending', 'started', 'completed', 'manual_review', 'expired', 'canceled')),
	type            TEXT NOT NULL CHECK (type IN ('core', 'basic', 'full')),
	options         TEXT CHECK (options IS NULL OR json_valid(options)),
	external_id     TEXT NOT NULL,
	webhook_url     TEXT NOT NULL,
	webhook_headers TEXT NOT NULL CHECK (json_valid(webhook_headers) AND json_type(webhook_headers) = 'object'),
	message         TEXT NOT NULL,
	lifetime_days   INTEGER NOT NULL,
	expires_at      INTEGER NOT NULL,
	started_at      INTEGER,
	completed_at    INTEGER,
	result          TEXT CHECK (result IS NULL OR json_valid(result)),
	pii_purged_at   INTEGER,
	template_id     TEXT REFERENCES templates (id) ON DELETE SET NULL,
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL,
	deleted_at      INTEGER
) STRICT;
-- List pages, newest first.
CREATE INDEX verifications_list ON verifications (account_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
-- Quota counts: slot-holding rows only.
CREATE INDEX verifications_quota ON verifications (account_id, type, created_at)
	WHERE status IN ('pending', 'started', 'completed', 'manual_review');
-- The expiry sweeper.
CREATE INDEX verifications_due ON verifications (expires_at) WHERE status IN ('pending', 'started');
CREATE INDEX verifications_external ON verifications (account_id, external_id) WHERE external_id <> '';
-- ON DELETE SET NULL of a template.
CREATE INDEX verifications_template ON verifications (template_id) WHERE template_id IS NOT NULL;
