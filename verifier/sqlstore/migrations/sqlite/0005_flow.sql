-- The end-user flow's per-link sessions and the images kept for manual
-- review (verifier/flow). Both hold personal data and arrive sealed: the
-- session under the server key, review images under the account's own key
-- in custom and passphrase modes. An empty state is a row locked for a
-- session not yet written. Purging a verification's personal data deletes
-- both. Times are INTEGER microseconds since the Unix epoch, UTC.
CREATE TABLE flow_sessions (
	verification_id TEXT PRIMARY KEY REFERENCES verifications (id) ON DELETE CASCADE,
	account_id      TEXT NOT NULL,
	state           BLOB NOT NULL,
	updated_at      INTEGER NOT NULL
) STRICT;

CREATE TABLE flow_review_images (
	verification_id TEXT NOT NULL REFERENCES verifications (id) ON DELETE CASCADE,
	account_id      TEXT NOT NULL,
	kind            TEXT NOT NULL CHECK (kind IN ('license_front', 'selfie')),
	data            BLOB NOT NULL,
	created_at      INTEGER NOT NULL,
	PRIMARY KEY (verification_id, kind)
) STRICT;
