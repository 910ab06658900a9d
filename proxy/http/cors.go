package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
)

// cors admits the widget's requests from the store's own origins only. A
// request without Origin, or from another origin, is refused before any
// work (the widget always runs cross-origin, so it always sends one);
// preflights are answered here.
func (h *handlers) cors(c *fiber.Ctx) error {
	c.Vary(fiber.HeaderOrigin)
	origin := c.Get(fiber.HeaderOrigin)
	st, err := h.svc.Stores.Store(c.UserContext(), c.Params("hash"))
	if err != nil {
		return toHTTP(err)
	}
	if origin == "" || !st.AllowsOrigin(origin) {
		return httperr.New(httperr.OriginNotAllowed, "this origin is not a storefront of the store")
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
	if c.Method() == fiber.MethodOptions {
		c.Set(fiber.HeaderAccessControlAllowMethods, "GET, POST")
		c.Set(fiber.HeaderAccessControlAllowHeaders, "Content-Type, "+CustomerTokenHeader)
		c.Set(fiber.HeaderAccessControlMaxAge, "600")
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.Next()
}
