// Package secheaders is the one set of security headers every response of
// the verifier and the proxy carries, set by one fiber middleware placed
// first, so no route (pages, errors, unknown paths) is left without them.
package secheaders

import "github.com/gofiber/fiber/v2"

// CSP is the default policy: nothing may load and nobody may frame the
// response. A page that loads its own script and style sets a policy of its
// own that must keep frame-ancestors 'none' (the tests check it).
const CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Headers are set on every response; handlers may replace the CSP only.
var Headers = map[string]string{
	fiber.HeaderContentSecurityPolicy: CSP,
	fiber.HeaderXFrameOptions:         "DENY",
	fiber.HeaderXContentTypeOptions:   "nosniff",
	fiber.HeaderReferrerPolicy:        "no-referrer",
}

// Middleware sets Headers before the rest of the chain runs, so they are
// there whatever answers: a handler, an error, or fiber's unknown route.
func Middleware(c *fiber.Ctx) error {
	Set(c)
	return c.Next()
}

// Set writes Headers on c's response; the error handlers of both servers
// call it too, for errors raised before any middleware ran (an oversized
// or unreadable request).
func Set(c *fiber.Ctx) {
	for k, v := range Headers {
		c.Set(k, v)
	}
}
