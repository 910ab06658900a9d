package http

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/verifier/openapi"
)

const readyTimeout = 2 * time.Second

type readiness struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// healthz says the process is up; it touches no dependency.
func (s *Server) healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readyz pings every dependency. A failure is 503 with the failing check
// named but its error only logged; a failing Degraded check alone is 200
// with status "degraded".
func (s *Server) readyz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), readyTimeout)
	defer cancel()
	r := readiness{Status: "ok", Checks: map[string]string{}}
	for _, chk := range s.ready {
		if err := chk.Check(ctx); err != nil {
			Logger(c).Warn("readiness check failed", "check", chk.Name, "err", err)
			r.Checks[chk.Name] = "unavailable"
			if !chk.Degraded {
				r.Status = "unavailable"
			} else if r.Status == "ok" {
				r.Status = "degraded"
			}
			continue
		}
		r.Checks[chk.Name] = "ok"
	}
	if r.Status == "unavailable" {
		c.Status(fiber.StatusServiceUnavailable)
	}
	return c.JSON(r)
}

func (s *Server) openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(openapi.Document())
}
