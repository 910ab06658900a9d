package http

import (
	"time"

	"github.com/gofiber/fiber/v2"
)

type accountResponse struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
	// Livemode is false when the token is a test-mode token (issue #22).
	Livemode bool `json:"livemode"`
}

// getMe is GET /me: the signed-in account. It does nothing else, which
// makes it the benchmark's authenticated no-op.
func (s *Server) getMe(c *fiber.Ctx) error {
	a, _ := Account(c)
	return c.JSON(accountResponse{ID: a.ID, Email: a.Email, CreatedAt: a.CreatedAt, Livemode: Mode(c).Livemode()})
}
