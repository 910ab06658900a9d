-- Passphrase keys: only the public part of a key the account holder derived
-- from a passphrase on their own machine (verifier/e2ee.PassphraseKey). The
-- service can seal to it and never decrypt.
CREATE TABLE passphrase_keys (
	id         uuid PRIMARY KEY,
	account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	name       text NOT NULL,
	public_key bytea NOT NULL, -- uncompressed P-256 point, 65 bytes
	kdf        jsonb NOT NULL CHECK (jsonb_typeof(kdf) = 'object'),
	created_at timestamptz NOT NULL
);

CREATE INDEX passphrase_keys_account ON passphrase_keys (account_id, created_at);
