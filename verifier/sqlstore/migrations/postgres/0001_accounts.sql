-- Accounts and their one integration key.
CREATE TABLE accounts (
	id            uuid PRIMARY KEY,
	email         text NOT NULL UNIQUE,
	password_hash text NOT NULL,
	created_at    timestamptz NOT NULL,
	updated_at    timestamptz NOT NULL
);

CREATE TABLE integration_keys (
	id                  uuid PRIMARY KEY,
	account_id          uuid NOT NULL UNIQUE REFERENCES accounts (id) ON DELETE CASCADE,
	prefix              text NOT NULL,
	hash                bytea NOT NULL UNIQUE,
	allowed_domains     jsonb NOT NULL CHECK (jsonb_typeof(allowed_domains) = 'array'),
	rate_limit_per_hour integer NOT NULL,
	created_at          timestamptz NOT NULL,
	updated_at          timestamptz NOT NULL
);
