package http

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/verifier/flow"
)

// The per-link limits on the end-user API (the link token is the key, so
// one leaked link cannot be used to load the engines without bound):
// uploads (license photos and liveness answers) and new challenges.
var (
	DefaultFlowUploadLimit    = ratelimit.Limit{Rate: 60, Period: time.Hour}
	DefaultFlowChallengeLimit = ratelimit.Limit{Rate: 20, Period: time.Hour}
)

// DefaultFlowBodyLimit bounds an end-user upload: a 10 MB photo, or a
// liveness answer's frames (the engines' budget: up to 150 frames of
// 256 KiB; a real answer of 30-90 frames of 40-120 KB is 1-10 MB), with
// room for the multipart framing. It bounds the liveness answer (and the
// photos where it is set under the flow's photo bound); every other
// endpoint keeps Config.BodyLimit (the route table's body column).
const DefaultFlowBodyLimit = 40 << 20

// busyRetryAfter is the Retry-After of a 503 when the engines are busy:
// a few seconds lets the queue drain without the page feeling stuck.
const busyRetryAfter = "3"

// flowHeaders: the token is in the path, so no answer may be cached or
// leak it through Referer.
func flowHeaders(c *fiber.Ctx) error {
	setFlowHeaders(c)
	return c.Next()
}

func setFlowHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("Referrer-Policy", "no-referrer")
}

// isFlowPath reports whether the request is under /v/, where every
// answer carries the flow's headers, whoever gives it.
func isFlowPath(c *fiber.Ctx) bool {
	return strings.HasPrefix(c.Path(), "/v/")
}

// limitLink counts one request of the link under the limit named name,
// shared by every route it guards (zero Rate: off). The key is the
// token's hash, so the token itself never reaches the limiter's store.
func (s *Server) limitLink(name string, limit ratelimit.Limit) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if limit.Rate == 0 {
			return c.Next()
		}
		h := sha256.Sum256([]byte(c.Params("token")))
		key := "flow-" + name + ":" + hex.EncodeToString(h[:16])
		res, err := s.allow(c, key, limit, "too many attempts on this link; wait a little and try again")
		if err != nil {
			return err
		}
		setHeaders(c, ratelimit.Headers(res))
		return c.Next()
	}
}

func (s *Server) flowSession(c *fiber.Ctx) error {
	view, err := s.flow.Session(c.UserContext(), c.Params("token"))
	if err != nil {
		return err
	}
	view.UnreachableLinkHost = unreachableHost(s.cfg.PublicURL)
	return c.JSON(view)
}

// flowPick is the end user's choice of document on a link accepting
// several kinds; the answer is the session, as GET session answers it.
func (s *Server) flowPick(c *fiber.Ctx) error {
	var req flow.PickRequest
	if err := s.flowJSON(c, &req); err != nil {
		return err
	}
	view, err := s.flow.Pick(c.UserContext(), c.Params("token"), req.Document)
	if err != nil {
		return err
	}
	view.UnreachableLinkHost = unreachableHost(s.cfg.PublicURL)
	return c.JSON(view)
}

func (s *Server) flowFront(c *fiber.Ctx) error {
	ans, err := s.flow.Front(c.UserContext(), c.Params("token"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

func (s *Server) flowBack(c *fiber.Ctx) error {
	ans, err := s.flow.Back(c.UserContext(), c.Params("token"), c.Body(), s.clientIP(c))
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

func (s *Server) flowPassportPage(c *fiber.Ctx) error {
	ans, err := s.flow.PassportPage(c.UserContext(), c.Params("token"), c.Body(), s.clientIP(c))
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

func (s *Server) flowIDCardFront(c *fiber.Ctx) error {
	ans, err := s.flow.IDCardFront(c.UserContext(), c.Params("token"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

func (s *Server) flowIDCardBack(c *fiber.Ctx) error {
	ans, err := s.flow.IDCardBack(c.UserContext(), c.Params("token"), c.Body(), s.clientIP(c))
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

func (s *Server) flowChallenge(c *fiber.Ctx) error {
	ans, err := s.flow.NewChallenge(c.UserContext(), c.Params("token"))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(ans)
}

func (s *Server) flowLiveness(c *fiber.Ctx) error {
	frames, err := parseFrames(c.Get(fiber.HeaderContentType), c.Body())
	if err != nil {
		// An unknown or ended link says so before its body is judged.
		if lerr := s.flow.CheckLink(c.UserContext(), c.Params("token")); lerr != nil {
			return lerr
		}
		return err
	}
	ans, err := s.flow.Liveness(c.UserContext(), c.Params("token"), c.Params("challenge"), frames)
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

func (s *Server) flowSubmit(c *fiber.Ctx) error {
	return flowStatus(c)(s.flow.Submit(c.UserContext(), c.Params("token"), s.clientIP(c)))
}

func (s *Server) flowReview(c *fiber.Ctx) error {
	return flowStatus(c)(s.flow.Review(c.UserContext(), c.Params("token")))
}

func (s *Server) flowDecline(c *fiber.Ctx) error {
	return flowStatus(c)(s.flow.DeclineReview(c.UserContext(), c.Params("token")))
}

func flowStatus(c *fiber.Ctx) func(flow.SubmitAnswer, error) error {
	return func(a flow.SubmitAnswer, err error) error {
		if err != nil {
			return err
		}
		return c.JSON(a)
	}
}
