-- Verifications and templates. NULL times mean "not yet". options, result
-- and settings are json (not jsonb) so they come back byte for byte, as the
-- webhook payload must. Deleted verifications stay (deleted_at set) so a
-- completed one keeps counting against its allowance.
CREATE TABLE templates (
	id         uuid PRIMARY KEY,
	account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name       text NOT NULL,
	settings   json,
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL
);
CREATE INDEX templates_by_account ON templates (account_id, created_at, id);

CREATE TABLE verifications (
	id              uuid PRIMARY KEY,
	account_id      uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	token_hash      bytea NOT NULL UNIQUE,
	status          text NOT NULL CHECK (status IN ('pending', 'started', 'completed', 'manual_review', 'expired', 'canceled')),
	type            text NOT NULL CHECK (type IN ('core', 'basic', 'full')),
	options         json,
	external_id     text NOT NULL,
	webhook_url     text NOT NULL,
	webhook_headers jsonb NOT NULL CHECK (jsonb_typeof(webhook_headers) = 'object'),
	message         text NOT NULL,
	lifetime_days   integer NOT NULL,
	expires_at      timestamptz NOT NULL,
	started_at      timestamptz,
	completed_at    timestamptz,
	result          json,
	pii_purged_at   timestamptz,
	template_id     uuid REFERENCES templates (id) ON DELETE SET NULL,
	created_at      timestamptz NOT NULL,
	updated_at      timestamptz NOT NULL,
	deleted_at      timestamptz
);
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
