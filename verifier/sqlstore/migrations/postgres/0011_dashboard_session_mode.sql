-- Test mode in the dashboard (issue #22): a session works on live data
-- (test false) or test data, switched by PATCH /dashboard/session.
ALTER TABLE dashboard_sessions ADD COLUMN test boolean NOT NULL DEFAULT false;
