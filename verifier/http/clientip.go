package http

import "github.com/gofiber/fiber/v2"

// clientIP is the request's client address behind the trusted proxies
// (clientip.Trusted.Of: the right-most X-Forwarded-For entry that is not
// one of them, when the peer is).
func (s *Server) clientIP(c *fiber.Ctx) string {
	return s.proxies.Of(c.Context().RemoteIP(), c.Get(fiber.HeaderXForwardedFor))
}
