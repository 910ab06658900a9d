package http

import (
	_ "embed"

	"github.com/gofiber/fiber/v2"
)

// The proxy's OpenAPI 3 document, served at GET /openapi.json. It is the
// list of operations the attacker's suite (securitytest) walks, and the
// proxy's tests check real responses against it (openapi_test.go), so it
// cannot drift from the handlers.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument is the document as served.
func OpenAPIDocument() []byte { return openAPIDocument }

func serveOpenAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	return c.Send(openAPIDocument)
}
