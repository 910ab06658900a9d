-- The requester's identity on its links' pages (issue #33): every field
-- optional ('' none), so accounts made before keep working. The logo's
-- bytes are our own PNG re-encoding, read only by GetAccountLogo; the
-- account's reads take its digest and size.
ALTER TABLE accounts ADD COLUMN display_name TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN accent_color TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN support_contact TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN privacy_policy_url TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN logo BLOB;
ALTER TABLE accounts ADD COLUMN logo_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN logo_type TEXT NOT NULL DEFAULT '';
ALTER TABLE accounts ADD COLUMN logo_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN logo_height INTEGER NOT NULL DEFAULT 0;
