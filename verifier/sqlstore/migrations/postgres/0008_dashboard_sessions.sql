-- Dashboard sessions (verifier.DashboardSession): only the cookie token's
-- SHA-256; idle and absolute expiry are judged from the two times.
CREATE TABLE dashboard_sessions (
	token_hash   bytea PRIMARY KEY,
	account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created_at   timestamptz NOT NULL,
	last_seen_at timestamptz NOT NULL
);

CREATE INDEX dashboard_sessions_account ON dashboard_sessions (account_id, last_seen_at);
