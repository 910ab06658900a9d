-- Test mode in the dashboard (issue #22): a session works on live data
-- (test 0) or test data (1), switched by PATCH /dashboard/session.
ALTER TABLE dashboard_sessions ADD COLUMN test INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1));
