package verifier

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"
)

// Dashboard sessions: the browser dashboard signs in with e-mail and
// password and keeps a random session token in an HttpOnly cookie. Only the
// token's SHA-256 is stored. A session ends after DashboardIdleTimeout
// without a request, after DashboardMaxAge whatever happens, at sign-out,
// and with its account.
const (
	DashboardIdleTimeout = 30 * time.Minute
	DashboardMaxAge      = 12 * time.Hour
	// dashboardTouchEvery bounds the writes a busy session causes: its
	// last-seen time moves at most once a minute, so the idle timeout is
	// exact to within a minute.
	dashboardTouchEvery = time.Minute
	dashboardTokenBytes = 32
	dashboardTokenLen   = 43 // unpadded base64url of 32 bytes
)

// ErrNoDashboardSession: the cookie names no live session (malformed,
// unknown, idle too long, too old, signed out, or its account is gone).
var ErrNoDashboardSession = errors.New("no dashboard session")

// DashboardSession is a signed-in dashboard browser, as stored.
type DashboardSession struct {
	TokenHash  []byte // SHA-256 of the cookie's token
	AccountID  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	// Mode is the data the session works on (docs/test-mode.md): every request it
	// authenticates is in this mode (WithMode), as a bearer token's are in
	// its own. A session starts live; SwitchMode changes it, for this
	// session only (another browser of the same account keeps its own).
	Mode Mode
}

// live reports whether the session may still be used at now.
func (s DashboardSession) live(now time.Time) bool {
	return now.Before(s.LastSeenAt.Add(DashboardIdleTimeout)) && now.Before(s.CreatedAt.Add(DashboardMaxAge))
}

// ExpiresAt is when the session ends if it stays idle from now on.
func (s DashboardSession) ExpiresAt() time.Time {
	idle, max := s.LastSeenAt.Add(DashboardIdleTimeout), s.CreatedAt.Add(DashboardMaxAge)
	if idle.Before(max) {
		return idle
	}
	return max
}

// DashboardSessionStore persists dashboard sessions (verifier/sqlstore).
type DashboardSessionStore interface {
	// CreateDashboardSession stores s; ErrNotFound if its account does not
	// exist.
	CreateDashboardSession(ctx context.Context, s DashboardSession) error
	// GetDashboardSession finds a session by its token hash.
	GetDashboardSession(ctx context.Context, tokenHash []byte) (DashboardSession, error)
	// TouchDashboardSession sets the session's LastSeenAt; ErrNotFound if it
	// is gone.
	TouchDashboardSession(ctx context.Context, tokenHash []byte, lastSeen time.Time) error
	// SetDashboardSessionMode sets the session's Mode; ErrNotFound if it
	// is gone.
	SetDashboardSessionMode(ctx context.Context, tokenHash []byte, m Mode) error
	// DeleteDashboardSession removes one session; a missing one is not an
	// error (signing out twice is fine).
	DeleteDashboardSession(ctx context.Context, tokenHash []byte) error
	// PruneDashboardSessions removes every session last seen before
	// idleBefore or created before createdBefore (the dead ones; the
	// sweeper calls it).
	PruneDashboardSessions(ctx context.Context, idleBefore, createdBefore time.Time) error
}

// DashboardSessions starts, resumes and ends dashboard sessions.
type DashboardSessions struct {
	Store interface {
		DashboardSessionStore
		GetAccount(ctx context.Context, id string) (Account, error)
	}
	Now func() time.Time
}

func hashDashboardToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// CSRFToken is the synchronizer token of the session whose cookie holds
// token: state-changing requests authenticated by the cookie must send it
// in a header. It is derived from the token (a different hash than the
// stored one), so a database copy does not reveal it and the server needs
// no second secret; a cross-site page can neither read the cookie nor the
// token.
func CSRFToken(token string) string {
	h := sha256.Sum256([]byte("idgate dashboard csrf\x00" + token))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// Start opens a session for an account that just proved its password and
// returns the cookie's token (shown only here). Dead sessions are removed
// by the sweeper (Sweeper.Sweep) and when presented (Resume).
func (d DashboardSessions) Start(ctx context.Context, accountID string) (string, DashboardSession, error) {
	now := d.Now().UTC()
	raw := make([]byte, dashboardTokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", DashboardSession{}, fmt.Errorf("start dashboard session: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	s := DashboardSession{TokenHash: hashDashboardToken(token), AccountID: accountID, CreatedAt: now, LastSeenAt: now}
	if err := d.Store.CreateDashboardSession(ctx, s); err != nil {
		return "", DashboardSession{}, fmt.Errorf("start dashboard session: %w", err)
	}
	return token, s, nil
}

// Resume checks a cookie's token and returns its account's identity (as
// Authenticator.Authenticate does: no password hash or secrets) and the
// session, its idle clock restarted. Anything but a live session is
// ErrNoDashboardSession; a dead one is deleted on the way.
func (d DashboardSessions) Resume(ctx context.Context, token string) (Account, DashboardSession, error) {
	if len(token) != dashboardTokenLen {
		return Account{}, DashboardSession{}, ErrNoDashboardSession
	}
	if raw, err := base64.RawURLEncoding.Strict().DecodeString(token); err != nil || len(raw) != dashboardTokenBytes {
		return Account{}, DashboardSession{}, ErrNoDashboardSession
	}
	hash := hashDashboardToken(token)
	s, err := d.Store.GetDashboardSession(ctx, hash)
	if errors.Is(err, ErrNotFound) {
		return Account{}, DashboardSession{}, ErrNoDashboardSession
	}
	if err != nil {
		return Account{}, DashboardSession{}, fmt.Errorf("resume dashboard session: %w", err)
	}
	now := d.Now().UTC()
	if !s.live(now) {
		if err := d.Store.DeleteDashboardSession(ctx, hash); err != nil {
			return Account{}, DashboardSession{}, fmt.Errorf("resume dashboard session: %w", err)
		}
		return Account{}, DashboardSession{}, ErrNoDashboardSession
	}
	acct, err := d.Store.GetAccount(ctx, s.AccountID)
	if errors.Is(err, ErrNotFound) {
		return Account{}, DashboardSession{}, ErrNoDashboardSession
	}
	if err != nil {
		return Account{}, DashboardSession{}, fmt.Errorf("resume dashboard session: %w", err)
	}
	if now.Sub(s.LastSeenAt) >= dashboardTouchEvery {
		err := d.Store.TouchDashboardSession(ctx, hash, now)
		if errors.Is(err, ErrNotFound) { // signed out meanwhile
			return Account{}, DashboardSession{}, ErrNoDashboardSession
		}
		if err != nil {
			return Account{}, DashboardSession{}, fmt.Errorf("resume dashboard session: %w", err)
		}
		s.LastSeenAt = now
	}
	return Account{ID: acct.ID, Email: acct.Email, CreatedAt: acct.CreatedAt, UpdatedAt: acct.UpdatedAt}, s, nil
}

// SwitchMode sets the mode of the session whose cookie holds token (the
// caller resumed it) and returns it as stored from then on.
// ErrNoDashboardSession if it ended meanwhile.
func (d DashboardSessions) SwitchMode(ctx context.Context, token string, s DashboardSession, m Mode) (DashboardSession, error) {
	err := d.Store.SetDashboardSessionMode(ctx, hashDashboardToken(token), m)
	if errors.Is(err, ErrNotFound) {
		return DashboardSession{}, ErrNoDashboardSession
	}
	if err != nil {
		return DashboardSession{}, fmt.Errorf("switch dashboard session mode: %w", err)
	}
	s.Mode = m
	return s, nil
}

// End signs a session out; an unknown or malformed token is not an error.
func (d DashboardSessions) End(ctx context.Context, token string) error {
	if err := d.Store.DeleteDashboardSession(ctx, hashDashboardToken(token)); err != nil {
		return fmt.Errorf("end dashboard session: %w", err)
	}
	return nil
}
