package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/verifier/flow"
)

// flowTestComplete is POST /v/{token}/test/complete (docs/test-mode.md): the
// outcome a tester picks for a test verification, instead of the license
// and liveness steps. The link token is the credential, as on every /v/
// step; a live verification's link is 404 and left untouched.
func (s *Server) flowTestComplete(c *fiber.Ctx) error {
	var p flow.TestPick
	if err := DecodeJSON(c.Body(), &p); err != nil {
		return err
	}
	return flowStatus(c)(s.flow.TestComplete(c.UserContext(), c.Params("token"), p))
}
