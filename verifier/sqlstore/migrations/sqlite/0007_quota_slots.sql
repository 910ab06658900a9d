-- Quota slot counters (issue #16): the slots an account's verifications of
-- one type hold in one period, spread over stripes (quota.go; SQLite has
-- one writer, so the stripes only keep the SQL the same as PostgreSQL's).
-- allowance is the limit the caps were cut from; cap is this stripe's share
-- of it; used never exceeds cap.
CREATE TABLE quota_slots (
	account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	type         TEXT NOT NULL,
	period_start INTEGER NOT NULL,
	stripe       INTEGER NOT NULL,
	allowance    INTEGER NOT NULL,
	cap          INTEGER NOT NULL,
	used         INTEGER NOT NULL CHECK (used >= 0),
	PRIMARY KEY (account_id, type, period_start, stripe)
) STRICT;
-- The period whose counters count this verification; NULL: not counted
-- (created under an unlimited plan, or before the counters existed).
ALTER TABLE verifications ADD COLUMN quota_period INTEGER;
-- Slot holders no counter counts yet, which a limited create adopts first.
CREATE INDEX verifications_uncounted ON verifications (account_id, type, created_at)
	WHERE quota_period IS NULL AND status IN ('pending', 'started', 'completed', 'manual_review');
