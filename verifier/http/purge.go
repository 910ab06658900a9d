package http

import (
	"github.com/gofiber/fiber/v2"
)

// purgeVerification is POST /verification/purge?id=: remove the personal
// data of a finished verification now (the result's license data, license
// photo and phone lookup, the flow's session and review images), keeping
// the booleans and tiers; pii_purged_at is set. Pending and started
// verifications are 409 (cancel first). A repeated purge changes nothing.
// It is registered with the flow's routes: it removes the flow's copies.
func (s *Server) purgeVerification(c *fiber.Ctx) error {
	a, _ := Account(c)
	id, err := queryID(c)
	if err != nil {
		return err
	}
	v, err := s.flow.Purge(c.UserContext(), a.ID, id)
	if err != nil {
		return err
	}
	return c.JSON(toVerificationResponse(v))
}
