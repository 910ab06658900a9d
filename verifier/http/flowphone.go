package http

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/phone"
)

// phoneRetryAfter is the Retry-After of a 503 when the SMS provider
// cannot send: long enough for a passing outage, short enough to wait.
const phoneRetryAfter = "30"

// maxLocale bounds the locale an end user's page sends (en, es, es-MX).
const maxLocale = 16

// phoneCode is the body of POST /v/{token}/phone/verify.
type phoneCode struct {
	Code string `json:"code"`
}

// flowPhone takes the number the end user entered and sends it a code.
func (s *Server) flowPhone(c *fiber.Ctx) error {
	var req flow.PhoneRequest
	if err := s.flowJSON(c, &req); err != nil {
		return err
	}
	var bad []problem.Detail
	if len(req.PhoneNumber) > phone.MaxInput {
		bad = append(bad, problem.Detail{Field: "phone_number", Code: "too_long", Message: "phone_number has at most " + strconv.Itoa(phone.MaxInput) + " characters"})
	}
	if len(req.Region) > 2 {
		bad = append(bad, problem.Detail{Field: "region", Code: "invalid", Message: "region is a two-letter ISO 3166-1 code such as US"})
	}
	if len(req.Locale) > maxLocale {
		bad = append(bad, problem.Detail{Field: "locale", Code: "too_long", Message: "locale has at most 16 characters"})
	}
	if bad != nil {
		return httperr.Validation(bad...)
	}
	ans, err := s.flow.PhoneSend(c.UserContext(), c.Params("token"), req)
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

// flowPhoneVerify checks the code the end user entered.
func (s *Server) flowPhoneVerify(c *fiber.Ctx) error {
	var req phoneCode
	if err := s.flowJSON(c, &req); err != nil {
		return err
	}
	ans, err := s.flow.PhoneCheck(c.UserContext(), c.Params("token"), req.Code)
	if err != nil {
		return err
	}
	return c.JSON(ans)
}

// flowJSON decodes a small JSON body of a flow step strictly (the route
// has requireJSON and the std body limit); an unknown or ended link says
// so before its body is judged.
func (s *Server) flowJSON(c *fiber.Ctx, v any) error {
	if err := DecodeJSON(c.Body(), v); err != nil {
		if lerr := s.flow.CheckLink(c.UserContext(), c.Params("token")); lerr != nil {
			return lerr
		}
		return err
	}
	return nil
}

// phoneError maps the phone step's errors that carry a value.
func phoneError(err error) (*httperr.Error, bool) {
	var we *flow.WaitError
	if errors.As(err, &we) {
		e := httperr.New(httperr.RateLimited, "a code was sent moments ago; wait before asking for another")
		e.Headers, e.Cause = map[string]string{"Retry-After": strconv.Itoa(max(1, int((we.Wait.Seconds())+0.999)))}, err
		return e, true
	}
	return nil, false
}
