package http

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/password"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/verifier"
)

type authRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// Mode "test" asks for a test-mode token (docs/test-mode.md); "live" or absent
	// for a live one.
	Mode *string `json:"mode"`
}

type authResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"` // seconds
	Livemode    bool   `json:"livemode"`
}

// parseMode reads a request's "mode" member: "live" (or absent) or "test";
// anything else is one validation detail.
func parseMode(v *string) (verifier.Mode, []problem.Detail) {
	if v == nil {
		return verifier.ModeLive, nil
	}
	switch *v {
	case verifier.ModeLive.String():
		return verifier.ModeLive, nil
	case verifier.ModeTest.String():
		return verifier.ModeTest, nil
	}
	return verifier.ModeLive, []problem.Detail{{Field: "mode", Code: "invalid_mode", Message: `must be "live" or "test"`}}
}

// postAuth is POST /auth: e-mail and password for a bearer token.
func (s *Server) postAuth(c *fiber.Ctx) error {
	var req authRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	var missing []problem.Detail
	// The document's schema, applied before any account is looked up: an
	// address no account can have, or a password longer than any can be,
	// is the caller's mistake (422), not a failed sign-in (401).
	switch {
	case strings.TrimSpace(req.Email) == "":
		missing = append(missing, problem.Detail{Field: "email", Code: "required", Message: "is required"})
	case verifier.ValidateEmail(verifier.NormalizeEmail(req.Email)) != nil:
		missing = append(missing, problem.Detail{Field: "email", Code: "invalid_email", Message: "must be a plain e-mail address (name@example.com) of at most 254 characters"})
	}
	switch {
	case req.Password == "":
		missing = append(missing, problem.Detail{Field: "password", Code: "required", Message: "is required"})
	case len(req.Password) > password.MaxLength:
		missing = append(missing, problem.Detail{Field: "password", Code: "too_long", Message: fmt.Sprintf("at most %d bytes", password.MaxLength)})
	}
	mode, bad := parseMode(req.Mode)
	missing = append(missing, bad...)
	if len(missing) > 0 {
		return httperr.Validation(missing...)
	}
	if err := s.limitSignIn(c, req.Email); err != nil {
		return err
	}
	tok, err := s.auth.Login(verifier.WithMode(c.UserContext(), mode), req.Email, req.Password)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(authResponse{AccessToken: tok.Token, TokenType: "Bearer", ExpiresIn: int64(tok.ExpiresIn / time.Second),
		Livemode: mode.Livemode()})
}

// limitSignIn counts the attempt against the client IP and against the
// e-mail (hashed, so limiter keys hold no addresses), 5 per minute each:
// the IP limit slows one client trying many accounts, the e-mail limit many
// clients trying one account. The headers describe the tighter of the two.
func (s *Server) limitSignIn(c *fiber.Ctx, email string) error {
	if s.cfg.AuthLimit.Rate == 0 {
		return nil
	}
	sum := sha256.Sum256([]byte(verifier.NormalizeEmail(email)))
	keys := []string{"auth:ip:" + s.clientIP(c), "auth:email:" + hex.EncodeToString(sum[:16])}
	var tightest ratelimit.Result
	for i, key := range keys {
		res, err := s.allow(c, key, s.cfg.AuthLimit, "too many sign-in attempts; retry later")
		if err != nil {
			return err
		}
		if i == 0 || res.Remaining < tightest.Remaining {
			tightest = res
		}
	}
	setHeaders(c, ratelimit.Headers(tightest))
	return nil
}
