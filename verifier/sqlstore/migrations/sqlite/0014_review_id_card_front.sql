-- The ID card's front (its portrait) is kept for manual review under its
-- own name (issue #35), beside the license front, the passport's data page
-- and the selfie. SQLite cannot change a CHECK constraint, so the table is
-- rebuilt with its rows.
CREATE TABLE flow_review_images_0014 (
	verification_id TEXT NOT NULL REFERENCES verifications (id) ON DELETE CASCADE,
	account_id      TEXT NOT NULL,
	kind            TEXT NOT NULL CHECK (kind IN ('license_front', 'passport_page', 'id_card_front', 'selfie')),
	data            BLOB NOT NULL,
	created_at      INTEGER NOT NULL,
	PRIMARY KEY (verification_id, kind)
) STRICT;
INSERT INTO flow_review_images_0014 (verification_id, account_id, kind, data, created_at)
	SELECT verification_id, account_id, kind, data, created_at FROM flow_review_images;
DROP TABLE flow_review_images;
ALTER TABLE flow_review_images_0014 RENAME TO flow_review_images;
