-- Webhook outbox (SQLite). Times are INTEGER microseconds since the Unix
-- epoch, like the verifier store.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id              TEXT PRIMARY KEY,
    account_id      TEXT NOT NULL,
    verification_id TEXT NOT NULL,
    url             TEXT NOT NULL,
    headers         TEXT NOT NULL,          -- JSON object
    payload         BLOB NOT NULL,          -- the exact bytes every attempt sends
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,  -- attempts recorded so far
    next_attempt_at INTEGER,                -- due time while pending
    lease_token     TEXT,                   -- current claim, if any
    lease_until     INTEGER,
    created_at      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due
    ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_verification
    ON webhook_deliveries (verification_id, created_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    status_code INTEGER NOT NULL,           -- 0: no response
    error       TEXT NOT NULL,              -- '' on success
    duration_us INTEGER NOT NULL,
    snippet     TEXT NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
