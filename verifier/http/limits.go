package http

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/ratelimit"
)

// allow counts one event under key. Denied is 429 RATE_LIMITED with
// Retry-After and the RateLimit headers. A limiter that cannot answer (Redis
// down) fails closed: 503 UNAVAILABLE with Retry-After: 1, because letting
// sign-in attempts through unlimited would open the door to password
// guessing. The cause is logged.
func (s *Server) allow(c *fiber.Ctx, key string, limit ratelimit.Limit, deniedMsg string) (ratelimit.Result, error) {
	res, err := s.limiter.Allow(c.UserContext(), key, limit)
	if err != nil {
		e := httperr.New(httperr.Unavailable, "rate limiting is temporarily unavailable; retry shortly")
		e.Headers, e.Cause = map[string]string{"Retry-After": "1"}, err
		return res, e
	}
	if !res.Allowed {
		e := httperr.New(httperr.RateLimited, deniedMsg)
		e.Headers = ratelimit.Headers(res)
		return res, e
	}
	return res, nil
}

func setHeaders(c *fiber.Ctx, h map[string]string) {
	for k, v := range h {
		c.Set(k, v)
	}
}

// limitAccount counts one request of the signed-in account under limit
// (a zero Rate is off) and sets the RateLimit headers.
func (s *Server) limitAccount(c *fiber.Ctx, key string, limit ratelimit.Limit, deniedMsg string) error {
	if limit.Rate == 0 {
		return nil
	}
	res, err := s.allow(c, key, limit, deniedMsg)
	if err != nil {
		return err
	}
	setTighterHeaders(c, res)
	return nil
}

// setTighterHeaders sets res's RateLimit headers unless the request
// already carries a limit's with fewer requests remaining: a create with
// an integration key counts under the key's limit and the account's, and
// the client must see the one it will hit first.
func setTighterHeaders(c *fiber.Ctx, res ratelimit.Result) {
	if prev, err := strconv.Atoi(c.GetRespHeader("RateLimit-Remaining")); err == nil && prev <= res.Remaining {
		return
	}
	setHeaders(c, ratelimit.Headers(res))
}
