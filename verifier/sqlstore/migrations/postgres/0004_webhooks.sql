-- Webhook delivery outbox (verifier/webhook/postgres) and the accounts'
-- sealed signing secrets. A delivery is inserted in the transaction that
-- moves its verification to completed or manual_review; workers claim it
-- with a lease (FOR UPDATE SKIP LOCKED) and record every attempt in
-- webhook_attempts.
--
-- headers and payload hold the verification's webhook_headers and result in
-- plain text, as the verifications table does; the worker empties both once
-- a delivery has been delivered for its retention period (Queue.Purge).
CREATE TABLE webhook_deliveries (
	id              text PRIMARY KEY,
	seq             bigint GENERATED ALWAYS AS IDENTITY,  -- orders deliveries created in the same microsecond
	account_id      text NOT NULL,
	verification_id text NOT NULL,
	url             text NOT NULL,
	headers         jsonb NOT NULL CHECK (jsonb_typeof(headers) = 'object'),
	payload         bytea NOT NULL,                     -- the exact bytes every attempt sends
	state           text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
	attempts        integer NOT NULL DEFAULT 0,         -- attempts recorded so far
	next_attempt_at timestamptz,                        -- due time while pending
	lease_token     text,                               -- current claim, if any
	lease_until     timestamptz,
	finished_at     timestamptz,                        -- when it became delivered or failed
	created_at      timestamptz NOT NULL
);
-- The workers' claim: due pending deliveries.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
-- History, retry, webhook_status and Forget by verification.
CREATE INDEX webhook_deliveries_verification ON webhook_deliveries (verification_id, created_at);
-- Purge of delivered payloads not yet emptied.
CREATE INDEX webhook_deliveries_purge ON webhook_deliveries (finished_at) WHERE state = 'delivered' AND octet_length(payload) > 0;

CREATE TABLE webhook_attempts (
	delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
	attempt     integer NOT NULL,
	started_at  timestamptz NOT NULL,
	status_code integer NOT NULL,                       -- 0: no response
	error       text NOT NULL,                          -- '' on success
	duration_us bigint NOT NULL,
	snippet     text NOT NULL,
	PRIMARY KEY (delivery_id, attempt)
);

ALTER TABLE accounts
	ADD COLUMN webhook_secret text NOT NULL DEFAULT '',
	ADD COLUMN webhook_secret_previous text NOT NULL DEFAULT '',
	ADD COLUMN webhook_secret_previous_until timestamptz;
