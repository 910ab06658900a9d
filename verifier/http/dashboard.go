package http

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/dashboard"
)

// The dashboard (verifier/dashboard) signs in with e-mail and password and
// then calls the same JSON API as a bearer client, authenticated by a
// session cookie instead of the Authorization header (docs/dashboard.md).
// Outside dev the cookie carries the __Host- prefix (Secure, Path=/, no
// Domain: no subdomain can set or shadow it); in dev it is served over
// plain http and cannot have the prefix.
const (
	sessionCookie    = "__Host-idgate_session"
	sessionCookieDev = "idgate_session"
	headerCSRF       = "X-CSRF-Token"
	// headerMode carries a dashboard session's mode (docs/test-mode.md): every
	// answer to the cookie says the session's mode in it, and every API
	// request with the cookie names in it the mode the page shows (see
	// session).
	headerMode = "Idgate-Mode"
)

const (
	msgNoSession   = "no dashboard session (signed out, or idle for too long); sign in again"
	msgCSRF        = "this request changes state and needs the session's X-CSRF-Token header (from POST or GET /dashboard/session)"
	msgModeMissing = `a dashboard request names the mode it shows in the Idgate-Mode header: "live" or "test" (the session's mode, from POST or GET /dashboard/session)`
	msgModeChanged = "this dashboard session is in %s mode now (switched in another tab); reload the page"
)

func (s *Server) cookieName() string {
	if s.cfg.Dev {
		return sessionCookieDev
	}
	return sessionCookie
}

// sessionAnswer is the body of the session endpoints.
type sessionAnswer struct {
	AccountID string    `json:"account_id"`
	Email     string    `json:"email"`
	CSRFToken string    `json:"csrf_token"`
	ExpiresAt time.Time `json:"expires_at"` // if idle from now on
	// IdleTimeout is how long the session lives without a request (seconds).
	IdleTimeout int64 `json:"idle_timeout"`
	// Mode is "live" or "test": the data every request of the session
	// works on (PATCH /dashboard/session switches it).
	Mode string `json:"mode"`
}

func newSessionAnswer(a verifier.Account, token string, ds verifier.DashboardSession) sessionAnswer {
	return sessionAnswer{AccountID: a.ID, Email: a.Email, CSRFToken: verifier.CSRFToken(token), ExpiresAt: ds.ExpiresAt(),
		IdleTimeout: int64(verifier.DashboardIdleTimeout / time.Second), Mode: ds.Mode.String()}
}

// postDashboardSession is POST /dashboard/session: sign-in with e-mail and
// password under POST /auth's rate limits, answered with the session
// cookie and the CSRF token. Login CSRF (a foreign page signing the victim
// into the attacker's account) is refused twice: a cross-site form cannot
// send application/json without a CORS preflight this server never
// grants, and a request the browser marks Sec-Fetch-Site: cross-site is
// refused outright.
func (s *Server) postDashboardSession(c *fiber.Ctx) error {
	if c.Get("Sec-Fetch-Site") == "cross-site" {
		return httperr.New(httperr.Forbidden, "sign in from the dashboard itself")
	}
	var req authRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	var missing []problem.Detail
	if req.Email == "" {
		missing = append(missing, problem.Detail{Field: "email", Code: "required", Message: "is required"})
	}
	if req.Password == "" {
		missing = append(missing, problem.Detail{Field: "password", Code: "required", Message: "is required"})
	}
	if len(missing) > 0 {
		return httperr.Validation(missing...)
	}
	if err := s.limitSignIn(c, req.Email); err != nil {
		return err
	}
	acct, err := s.auth.CheckPassword(c.UserContext(), req.Email, req.Password)
	if err != nil {
		return err
	}
	token, ds, err := s.sessions.Start(c.UserContext(), acct.ID)
	if err != nil {
		return err
	}
	c.Cookie(&fiber.Cookie{Name: s.cookieName(), Value: token, Path: "/", HTTPOnly: true, Secure: !s.cfg.Dev, SameSite: fiber.CookieSameSiteStrictMode})
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(newSessionAnswer(acct, token, ds))
}

// getDashboardSession is GET /dashboard/session: who is signed in, and the
// CSRF token again (after a reload the page has only the cookie).
func (s *Server) getDashboardSession(c *fiber.Ctx) error {
	a, _ := Account(c)
	ds, _ := c.Locals(localSession).(verifier.DashboardSession)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(newSessionAnswer(a, c.Cookies(s.cookieName()), ds))
}

// modeRequest is the body of PATCH /dashboard/session.
type modeRequest struct {
	Mode *string `json:"mode"`
}

// patchDashboardSession is PATCH /dashboard/session {"mode": "live" |
// "test"}: the live/test switch. The mode is stored on the session's row,
// so it holds for every later request of this session (and survives a
// reload) and for no other session of the account. A state change like
// any other: the cookie and the CSRF header.
func (s *Server) patchDashboardSession(c *fiber.Ctx) error {
	var req modeRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	if req.Mode == nil {
		return httperr.Validation(problem.Detail{Field: "mode", Code: "required", Message: `is required: "live" or "test"`})
	}
	m, bad := parseMode(req.Mode)
	if len(bad) > 0 {
		return httperr.Validation(bad...)
	}
	a, _ := Account(c)
	ds, _ := c.Locals(localSession).(verifier.DashboardSession)
	token := c.Cookies(s.cookieName())
	ds, err := s.sessions.SwitchMode(c.UserContext(), token, ds, m)
	if err != nil {
		return s.noSession(c, token, err)
	}
	Logger(c).Info("dashboard mode switched", "mode", m.String())
	c.Set(headerMode, m.String())
	return c.JSON(newSessionAnswer(a, token, ds))
}

// deleteDashboardSession is DELETE /dashboard/session: sign-out. The
// session is deleted server-side and the cookie cleared.
func (s *Server) deleteDashboardSession(c *fiber.Ctx) error {
	if err := s.sessions.End(c.UserContext(), c.Cookies(s.cookieName())); err != nil {
		return err
	}
	s.clearSessionCookie(c)
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) clearSessionCookie(c *fiber.Ctx) {
	c.Cookie(&fiber.Cookie{Name: s.cookieName(), Value: "", Path: "/", HTTPOnly: true, Secure: !s.cfg.Dev,
		SameSite: fiber.CookieSameSiteStrictMode, MaxAge: -1, Expires: time.Unix(0, 0)})
}

const localSession = "idgate.dashboard_session"

// RequireSession guards the session endpoints: the cookie only (a bearer
// token has no session to show, switch or end), no X-API-Key, and the CSRF
// header on every method that changes state. They are not in a mode (they
// say and set it), so they need no Idgate-Mode header.
func (s *Server) RequireSession() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if c.Get(headerAPIKey) != "" {
			return errKeyNotAllowed()
		}
		return s.session(c, false)
	}
}

// session authenticates c by its session cookie, checking the CSRF header
// unless the method is safe, and calls the next handler in the session's
// mode.
//
// The mode has one rule: it is the session's, stored on its row and set
// only by PATCH /dashboard/session; the request's context carries it
// (verifier.WithMode), as a bearer token's mode. An API request (inAPI)
// must also name it in Idgate-Mode, and is refused when it names the other
// one: a tab drawn in live mode whose session another tab switched to test
// gets 409 and reloads, rather than test data under a live heading. The
// answer's Idgate-Mode says the session's mode either way.
func (s *Server) session(c *fiber.Ctx, inAPI bool) error {
	token := c.Cookies(s.cookieName())
	acct, ds, err := s.sessions.Resume(c.UserContext(), token)
	if err != nil {
		return s.noSession(c, token, err)
	}
	if m := c.Method(); m != fiber.MethodGet && m != fiber.MethodHead {
		want := verifier.CSRFToken(token)
		if subtle.ConstantTimeCompare([]byte(c.Get(headerCSRF)), []byte(want)) != 1 {
			Logger(c).Info("csrf refused", "method", m, "path", c.Path())
			return httperr.New(httperr.Forbidden, msgCSRF)
		}
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(headerMode, ds.Mode.String())
	if inAPI {
		if err := sameMode(c.Get(headerMode), ds.Mode); err != nil {
			return err
		}
	}
	authenticated(c, acct, ds.Mode)
	c.Locals(localSession, ds)
	return c.Next()
}

// sameMode checks the mode a dashboard request names (its Idgate-Mode
// header) against its session's.
func sameMode(named string, m verifier.Mode) error {
	switch named {
	case m.String():
		return nil
	case verifier.ModeLive.String(), verifier.ModeTest.String():
		return httperr.New(httperr.Conflict, fmt.Sprintf(msgModeChanged, m))
	}
	return httperr.New(httperr.BadRequest, msgModeMissing)
}

// noSession answers a cookie that names no live session (401, the cookie
// cleared); other errors pass through.
func (s *Server) noSession(c *fiber.Ctx, token string, err error) error {
	if !errors.Is(err, verifier.ErrNoDashboardSession) {
		return err
	}
	if token != "" {
		s.clearSessionCookie(c)
	}
	e := httperr.New(httperr.Unauthenticated, msgNoSession)
	e.Cause = err
	return e
}

// dashboardPage is GET /dashboard: the app's shell. Every page of the
// dashboard is this one document (the router reads the URL's fragment);
// signed out, the app shows its sign-in form.
func (s *Server) dashboardPage(c *fiber.Ctx) error {
	page, err := dashboard.Page()
	if err != nil {
		return err
	}
	dashboardHeaders(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return sendHTML(c, fiber.StatusOK, page)
}

func dashboardHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderContentSecurityPolicy, dashboard.CSP)
	c.Set(fiber.HeaderPermissionsPolicy, dashboard.PermissionsPolicy)
	c.Set("X-Robots-Tag", "noindex")
}
