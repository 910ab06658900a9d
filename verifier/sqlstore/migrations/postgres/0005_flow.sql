-- The end-user flow's per-link sessions and the images kept for manual
-- review (verifier/flow). Both hold personal data and arrive sealed: the
-- session under the server key, review images under the account's own key
-- in custom and passphrase modes. An empty state is a row locked for a
-- session not yet written. Purging a verification's personal data deletes
-- both.
CREATE TABLE flow_sessions (
	verification_id uuid PRIMARY KEY REFERENCES verifications (id) ON DELETE CASCADE,
	account_id      uuid NOT NULL,
	state           bytea NOT NULL,
	updated_at      timestamptz NOT NULL
);

CREATE TABLE flow_review_images (
	verification_id uuid NOT NULL REFERENCES verifications (id) ON DELETE CASCADE,
	account_id      uuid NOT NULL,
	kind            text NOT NULL CHECK (kind IN ('license_front', 'selfie')),
	data            bytea NOT NULL,
	created_at      timestamptz NOT NULL,
	PRIMARY KEY (verification_id, kind)
);
