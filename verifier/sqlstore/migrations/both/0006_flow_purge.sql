-- The scheduled PII purge (flow.Store.PurgeDue) finds completed
-- verifications past retention whose personal data is still there.
CREATE INDEX verifications_purge_due ON verifications (completed_at)
	WHERE status = 'completed' AND pii_purged_at IS NULL AND deleted_at IS NULL;
