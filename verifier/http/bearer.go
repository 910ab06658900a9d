package http

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
)

const (
	localAccount        = "idgate.account"
	localIntegrationKey = "idgate.integration_key"
	headerAPIKey        = "X-API-Key"
)

// errKeyNotAllowed answers an integration key presented where only a bearer
// token is accepted. 403, not 401: signing in again would not help, the key
// simply may not do this. The key is not even looked up, so these endpoints
// reveal nothing about whether it is live.
func errKeyNotAllowed() error {
	return httperr.New(httperr.Forbidden, "integration keys may only create verifications; use a bearer token")
}

// RequireBearer guards account endpoints: a valid bearer token whose
// account exists, and no X-API-Key. Without an Authorization header, the
// dashboard's session cookie is accepted instead, with its CSRF header on
// every state change and the session's mode named in Idgate-Mode
// (dashboard.go); with one, the cookie is ignored.
func (s *Server) RequireBearer() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if c.Get(headerAPIKey) != "" {
			return errKeyNotAllowed()
		}
		if c.Get(fiber.HeaderAuthorization) == "" && c.Cookies(s.cookieName()) != "" {
			return s.session(c, true)
		}
		acct, mode, err := s.bearer(c)
		if err != nil {
			return err
		}
		authenticated(c, acct, mode)
		return c.Next()
	}
}

func (s *Server) bearer(c *fiber.Ctx) (verifier.Account, verifier.Mode, error) {
	scheme, token, ok := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return verifier.Account{}, verifier.ModeLive, verifier.ErrInvalidToken
	}
	acct, mode, err := s.auth.AuthenticateMode(c.UserContext(), strings.TrimSpace(token))
	if errors.Is(err, verifier.ErrInvalidToken) {
		Logger(c).Debug("bearer token refused", "reason", err)
	}
	return acct, mode, err
}

// authenticated records the request's account and the credential's mode:
// the mode goes into the request's context (verifier.WithMode), where every
// domain call the handler makes reads it, so live and test data stay apart
// without each handler passing the mode on.
//
// Every answer to an authenticated request is an account's own data (its
// keys, quota, templates, verifications, deliveries with their response
// snippets), so none may be kept by a shared or browser cache.
func authenticated(c *fiber.Ctx, acct verifier.Account, mode verifier.Mode) {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Locals(localAccount, acct)
	c.SetUserContext(verifier.WithMode(c.UserContext(), mode))
}

// Mode is the mode of the request's credential (live when none).
func Mode(c *fiber.Ctx) verifier.Mode { return verifier.ModeOf(c.UserContext()) }

// Account is the authenticated account (bearer or integration key).
func Account(c *fiber.Ctx) (verifier.Account, bool) {
	a, ok := c.Locals(localAccount).(verifier.Account)
	return a, ok
}

// IntegrationKey is the key that authenticated the request, if one did.
func IntegrationKey(c *fiber.Ctx) (verifier.IntegrationKey, bool) {
	k, ok := c.Locals(localIntegrationKey).(verifier.IntegrationKey)
	return k, ok
}
