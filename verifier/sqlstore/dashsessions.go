package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier"
)

const dashSessionCols = `token_hash, account_id, created_at, last_seen_at, test`

var (
	insertDashSessionSQL = q(`INSERT INTO dashboard_sessions (` + dashSessionCols + `) VALUES ($1, $2, $3, $4, $5)`)
	getDashSessionSQL    = q(`SELECT ` + dashSessionCols + ` FROM dashboard_sessions WHERE token_hash = $1`)
	touchDashSessionSQL  = q(`UPDATE dashboard_sessions SET last_seen_at = $2 WHERE token_hash = $1`)
	modeDashSessionSQL   = q(`UPDATE dashboard_sessions SET test = $2 WHERE token_hash = $1`)
	deleteDashSessionSQL = q(`DELETE FROM dashboard_sessions WHERE token_hash = $1`)
	pruneDashSessionsSQL = q(`DELETE FROM dashboard_sessions WHERE last_seen_at < $1 OR created_at < $2`)
)

func (db *DB) CreateDashboardSession(ctx context.Context, s verifier.DashboardSession) error {
	_, err := db.w.ExecContext(ctx, db.sql(insertDashSessionSQL), s.TokenHash, s.AccountID, ts(s.CreatedAt), ts(s.LastSeenAt), bool(s.Mode))
	if err != nil {
		return fmt.Errorf("create dashboard session: %w", mapErr(err))
	}
	return nil
}

func (db *DB) GetDashboardSession(ctx context.Context, tokenHash []byte) (verifier.DashboardSession, error) {
	var s verifier.DashboardSession
	err := db.r.QueryRowContext(ctx, db.sql(getDashSessionSQL), tokenHash).
		Scan(&s.TokenHash, &s.AccountID, scanTime{&s.CreatedAt}, scanTime{&s.LastSeenAt}, (*bool)(&s.Mode))
	if err != nil {
		return verifier.DashboardSession{}, fmt.Errorf("get dashboard session: %w", mapErr(err))
	}
	return s, nil
}

func (db *DB) TouchDashboardSession(ctx context.Context, tokenHash []byte, lastSeen time.Time) error {
	n, err := rowsAffected(db.w.ExecContext(ctx, db.sql(touchDashSessionSQL), tokenHash, ts(lastSeen)))
	if err != nil {
		return fmt.Errorf("touch dashboard session: %w", mapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("touch dashboard session: %w", verifier.ErrNotFound)
	}
	return nil
}

func (db *DB) SetDashboardSessionMode(ctx context.Context, tokenHash []byte, m verifier.Mode) error {
	n, err := rowsAffected(db.w.ExecContext(ctx, db.sql(modeDashSessionSQL), tokenHash, bool(m)))
	if err != nil {
		return fmt.Errorf("set dashboard session mode: %w", mapErr(err))
	}
	if n == 0 {
		return fmt.Errorf("set dashboard session mode: %w", verifier.ErrNotFound)
	}
	return nil
}

func (db *DB) DeleteDashboardSession(ctx context.Context, tokenHash []byte) error {
	if _, err := db.w.ExecContext(ctx, db.sql(deleteDashSessionSQL), tokenHash); err != nil {
		return fmt.Errorf("delete dashboard session: %w", mapErr(err))
	}
	return nil
}

func (db *DB) PruneDashboardSessions(ctx context.Context, idleBefore, createdBefore time.Time) error {
	if _, err := db.w.ExecContext(ctx, db.sql(pruneDashSessionsSQL), ts(idleBefore), ts(createdBefore)); err != nil {
		return fmt.Errorf("prune dashboard sessions: %w", mapErr(err))
	}
	return nil
}
