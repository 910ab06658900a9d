-- Quota slot counters (issue #16): the slots an account's verifications of
-- one type hold in one period, spread over a fixed number of stripes so
-- that concurrent creates lock different rows instead of all queueing on
-- one (quota.go explains the invariant). allowance is the limit the caps
-- were cut from; cap is this stripe's share of it; used never exceeds cap.
CREATE TABLE quota_slots (
	account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	type         text NOT NULL,
	period_start timestamptz NOT NULL,
	stripe       integer NOT NULL,
	allowance    bigint NOT NULL,
	cap          bigint NOT NULL,
	used         bigint NOT NULL CHECK (used >= 0),
	PRIMARY KEY (account_id, type, period_start, stripe)
);
-- The period whose counters count this verification; NULL: not counted
-- (created under an unlimited plan, or before the counters existed).
ALTER TABLE verifications ADD COLUMN quota_period timestamptz;
-- Slot holders no counter counts yet, which a limited create adopts first.
CREATE INDEX verifications_uncounted ON verifications (account_id, type, created_at)
	WHERE quota_period IS NULL AND status IN ('pending', 'started', 'completed', 'manual_review');
