package http

import (
	"github.com/gofiber/fiber/v2"
)

// Cross-origin calls. An integration key is publishable: a merchant's page
// may call POST /create-verification with it from the browser (docs/api.md
// shows the fetch). That is a cross-origin request with a custom header, so
// the browser first sends a preflight, and then reads the answer only if
// it names the page's origin. Nothing else of the API is for browsers on
// other sites: bearer tokens must stay on servers, and the end-user pages
// are same-origin.
//
//   - The preflight (OPTIONS /create-verification) is answered for any
//     Origin: it carries no key, so the allowlist cannot be checked yet, and
//     it grants nothing: the POST is judged on its own.
//   - The POST names its Origin in Access-Control-Allow-Origin only once the
//     key's allowlist admitted it. Every answer from then on carries it (a
//     422 or the key's 429 too, so the page can read why); a refused Origin,
//     a bad key or a bearer-token call gets none, and the browser withholds
//     the answer from the page.
//   - No credentials: the key is a header, never a cookie.
const (
	corsAllowHeaders  = "Content-Type, X-API-Key"
	corsExposeHeaders = "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-ID"
	corsMaxAge        = "600"
)

// localAdmittedOrigin: the Origin an integration key's allowlist admitted.
const localAdmittedOrigin = "idgate.admittedOrigin"

// createPreflight answers OPTIONS /create-verification.
func createPreflight(c *fiber.Ctx) error {
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" {
		return c.SendStatus(fiber.StatusNoContent)
	}
	c.Vary(fiber.HeaderOrigin)
	c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
	c.Set(fiber.HeaderAccessControlAllowMethods, fiber.MethodPost)
	c.Set(fiber.HeaderAccessControlAllowHeaders, corsAllowHeaders)
	c.Set(fiber.HeaderAccessControlMaxAge, corsMaxAge)
	return c.SendStatus(fiber.StatusNoContent)
}

// keyCORS wraps the create route: once the chain has run, an answer to an
// Origin the key admitted is readable by that origin's page, whatever its
// status.
func keyCORS(c *fiber.Ctx) error {
	err := c.Next()
	if origin, ok := c.Locals(localAdmittedOrigin).(string); ok {
		c.Vary(fiber.HeaderOrigin)
		c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
		c.Set(fiber.HeaderAccessControlExposeHeaders, corsExposeHeaders)
	}
	return err
}
