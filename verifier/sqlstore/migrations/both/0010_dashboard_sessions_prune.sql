-- The sweeper prunes dead dashboard sessions across accounts by their
-- last-seen time (verifier.Sweeper.Sweep); no query looks sessions up by
-- account.
DROP INDEX dashboard_sessions_account;
CREATE INDEX dashboard_sessions_last_seen ON dashboard_sessions (last_seen_at);
