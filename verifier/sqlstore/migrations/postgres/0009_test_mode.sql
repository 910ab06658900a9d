-- Test mode (issue #22): a verification or integration key is live (test
-- false) or test. Test verifications are never counted against an
-- allowance: the quota indexes, like the statements that use them, hold
-- live slot holders only. An account has one integration key per mode.
ALTER TABLE verifications ADD COLUMN test boolean NOT NULL DEFAULT false;
DROP INDEX verifications_list;
CREATE INDEX verifications_list ON verifications (account_id, test, created_at DESC, id DESC) WHERE deleted_at IS NULL;
DROP INDEX verifications_quota;
CREATE INDEX verifications_quota ON verifications (account_id, type, created_at)
	WHERE NOT test AND status IN ('pending', 'started', 'completed', 'manual_review');
DROP INDEX verifications_uncounted;
CREATE INDEX verifications_uncounted ON verifications (account_id, type, created_at)
	WHERE quota_period IS NULL AND NOT test AND status IN ('pending', 'started', 'completed', 'manual_review');

ALTER TABLE integration_keys ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE integration_keys DROP CONSTRAINT integration_keys_account_id_key;
CREATE UNIQUE INDEX integration_keys_account_mode ON integration_keys (account_id, test);
