-- The requester's identity on its links' pages (issue #33): every field
-- optional ('' none), so accounts made before keep working. The logo's
-- bytes are our own PNG re-encoding, read only by GetAccountLogo; the
-- account's reads take its digest and size.
ALTER TABLE accounts
	ADD COLUMN display_name       text    NOT NULL DEFAULT '',
	ADD COLUMN accent_color       text    NOT NULL DEFAULT '',
	ADD COLUMN support_contact    text    NOT NULL DEFAULT '',
	ADD COLUMN privacy_policy_url text    NOT NULL DEFAULT '',
	ADD COLUMN logo               bytea,
	ADD COLUMN logo_sha256        text    NOT NULL DEFAULT '',
	ADD COLUMN logo_type          text    NOT NULL DEFAULT '',
	ADD COLUMN logo_width         integer NOT NULL DEFAULT 0,
	ADD COLUMN logo_height        integer NOT NULL DEFAULT 0;
