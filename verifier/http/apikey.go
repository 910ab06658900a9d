package http

import (
	"errors"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/verifier"
)

// RequireBearerOrIntegrationKey guards create-verification, the one
// endpoint an integration key may call. Without X-API-Key it is
// RequireBearer. With it (and no Authorization header): the key must be live
// (401), the Origin on its allowlist (403 ORIGIN_NOT_ALLOWED), and the key
// within its own hourly limit (429). Account-level limits are the route's.
func (s *Server) RequireBearerOrIntegrationKey() fiber.Handler {
	return func(c *fiber.Ctx) error {
		value := c.Get(headerAPIKey)
		if value == "" {
			acct, mode, err := s.bearer(c)
			if err != nil {
				return err
			}
			authenticated(c, acct, mode)
			return c.Next()
		}
		if c.Get(fiber.HeaderAuthorization) != "" {
			return httperr.New(httperr.Unauthenticated, "send either Authorization or X-API-Key, not both")
		}
		k, err := s.keys.Authenticate(c.UserContext(), value, c.Get(fiber.HeaderOrigin))
		if err != nil {
			return err
		}
		c.Locals(localAdmittedOrigin, c.Get(fiber.HeaderOrigin))
		res, err := s.allow(c, "ikey:"+k.ID, ratelimit.Limit{Rate: k.RateLimitPerHour, Period: time.Hour}, "integration key rate limit exceeded")
		if err != nil {
			return err
		}
		setTighterHeaders(c, res)
		acct, err := s.store.GetAccount(c.UserContext(), k.AccountID)
		if errors.Is(err, verifier.ErrNotFound) {
			return verifier.ErrInvalidKey
		}
		if err != nil {
			return fmt.Errorf("integration key account: %w", err)
		}
		authenticated(c, acct, k.Mode)
		c.Locals(localIntegrationKey, k)
		return c.Next()
	}
}
