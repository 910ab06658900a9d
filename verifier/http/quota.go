package http

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/verifier"
)

// quotaLine: limit and remaining are null when the allowance is unlimited.
type quotaLine struct {
	Limit     *int `json:"limit"`
	Used      int  `json:"used"`
	Remaining *int `json:"remaining"`
}

type quotaResponse struct {
	PeriodStart time.Time                   `json:"period_start"`
	PeriodEnd   time.Time                   `json:"period_end"`
	Allowances  map[verifier.Type]quotaLine `json:"allowances"`
}

// getQuota is GET /quota: the plan's allowance per type this month and the
// slots in use (unfinished links and completed verifications).
func (s *Server) getQuota(c *fiber.Ctx) error {
	a, _ := Account(c)
	q, err := s.verifications.Quota(c.UserContext(), a.ID)
	if err != nil {
		return err
	}
	out := quotaResponse{PeriodStart: q.PeriodStart, PeriodEnd: q.PeriodEnd, Allowances: map[verifier.Type]quotaLine{}}
	for _, l := range q.Lines {
		line := quotaLine{Used: l.Used}
		if l.Limit >= 0 {
			limit, left := l.Limit, max(l.Limit-l.Used, 0)
			line.Limit, line.Remaining = &limit, &left
		}
		out.Allowances[l.Type] = line
	}
	return c.JSON(out)
}
