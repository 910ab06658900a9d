-- Webhook delivery outbox (verifier/webhook/sqlite) and the accounts' sealed
-- signing secrets. A delivery is inserted in the transaction that moves its
-- verification to completed or manual_review; the worker claims it with a
-- lease and records every attempt in webhook_attempts. Times are INTEGER
-- microseconds since the Unix epoch, UTC.
--
-- headers and payload hold the verification's webhook_headers and result in
-- plain text, as the verifications table does; the worker empties both once
-- a delivery has been delivered for its retention period (Queue.Purge).
CREATE TABLE webhook_deliveries (
	id              TEXT PRIMARY KEY,
	account_id      TEXT NOT NULL,
	verification_id TEXT NOT NULL,
	url             TEXT NOT NULL,
	headers         TEXT NOT NULL CHECK (json_valid(headers) AND json_type(headers) = 'object'),
	payload         BLOB NOT NULL,                -- the exact bytes every attempt sends
	state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
	attempts        INTEGER NOT NULL DEFAULT 0,   -- attempts recorded so far
	next_attempt_at INTEGER,                      -- due time while pending
	lease_token     TEXT,                         -- current claim, if any
	lease_until     INTEGER,
	finished_at     INTEGER,                      -- when it became delivered or failed
	created_at      INTEGER NOT NULL
) STRICT;
-- The worker's claim: due pending deliveries.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
-- History, retry, webhook_status and Forget by verification.
CREATE INDEX webhook_deliveries_verification ON webhook_deliveries (verification_id, created_at);
-- Purge of delivered payloads not yet emptied.
CREATE INDEX webhook_deliveries_purge ON webhook_deliveries (finished_at) WHERE state = 'delivered' AND length(payload) > 0;

CREATE TABLE webhook_attempts (
	delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
	attempt     INTEGER NOT NULL,
	started_at  INTEGER NOT NULL,
	status_code INTEGER NOT NULL,                 -- 0: no response
	error       TEXT NOT NULL,                    -- '' on success
	duration_us INTEGER NOT NULL,
	snippet     TEXT NOT NULL,
	PRIMARY KEY (delivery_id, attempt)
) STRICT;

ALTER TABLE accounts ADD COLUMN webhook_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN webhook_secret_previous TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN webhook_secret_previous_until INTEGER;
