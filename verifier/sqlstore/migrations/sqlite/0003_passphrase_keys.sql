-- Passphrase keys: only the public part of a key the account holder derived
-- from a passphrase on their own machine (verifier/e2ee.PassphraseKey). The
-- service can seal to it and never decrypt.
CREATE TABLE passphrase_keys (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	public_key BLOB NOT NULL, -- uncompressed P-256 point, 65 bytes
	kdf        TEXT NOT NULL CHECK (json_valid(kdf) AND json_type(kdf) = 'object'),
	created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX passphrase_keys_account ON passphrase_keys (account_id, created_at);
