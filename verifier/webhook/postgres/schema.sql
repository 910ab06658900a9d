-- Webhook outbox (PostgreSQL).
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id              text PRIMARY KEY,
    seq             bigint GENERATED ALWAYS AS IDENTITY,  -- orders deliveries created in the same microsecond
    account_id      text NOT NULL,
    verification_id text NOT NULL,
    url             text NOT NULL,
    headers         jsonb NOT NULL,
    payload         bytea NOT NULL,         -- the exact bytes every attempt sends
    state           text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,  -- attempts recorded so far
    next_attempt_at timestamptz,            -- due time while pending
    lease_token     text,                   -- current claim, if any
    lease_until     timestamptz,
    created_at      timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due
    ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_verification
    ON webhook_deliveries (verification_id, created_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     integer NOT NULL,
    started_at  timestamptz NOT NULL,
    status_code integer NOT NULL,           -- 0: no response
    error       text NOT NULL,              -- '' on success
    duration_us bigint NOT NULL,
    snippet     text NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
