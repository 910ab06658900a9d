package http

import (
	"errors"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
)

type keySettingsRequest struct {
	AllowedDomains   *[]string `json:"allowed_domains"`
	RateLimitPerHour *int      `json:"rate_limit_per_hour"`
}

func (r keySettingsRequest) settings() verifier.KeySettings {
	return verifier.KeySettings{AllowedDomains: r.AllowedDomains, RateLimitPerHour: r.RateLimitPerHour}
}

type integrationKeyResponse struct {
	ID               string    `json:"id"`
	Prefix           string    `json:"prefix"`
	AllowedDomains   []string  `json:"allowed_domains"`
	RateLimitPerHour int       `json:"rate_limit_per_hour"`
	CreatedAt        time.Time `json:"created_at"`
	UpdatedAt        time.Time `json:"updated_at"`
	// Livemode is false for the test key (idgk_test_…), which creates test
	// verifications.
	Livemode bool `json:"livemode"`
	// Key is the value, present only in the answer to generation.
	Key string `json:"key,omitempty"`
}

func keyResponse(k verifier.IntegrationKey) integrationKeyResponse {
	domains := k.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	return integrationKeyResponse{ID: k.ID, Prefix: k.Prefix, AllowedDomains: domains, RateLimitPerHour: k.RateLimitPerHour, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt, Livemode: k.Mode.Livemode()}
}

// noKey gives "no key yet" a message that says what to do.
func noKey(err error) error {
	if errors.Is(err, verifier.ErrNotFound) {
		return httperr.New(httperr.NotFound, "this account has no integration key; generate one with POST /integration-key")
	}
	return err
}

// postIntegrationKey generates the account's key (revoking any previous
// one) and shows its value this once. The body is optional.
func (s *Server) postIntegrationKey(c *fiber.Ctx) error {
	var req keySettingsRequest
	if len(c.Body()) > 0 {
		if err := DecodeJSON(c.Body(), &req); err != nil {
			return err
		}
	}
	a, _ := Account(c)
	k, value, err := s.keys.Generate(c.UserContext(), a.ID, req.settings())
	if err != nil {
		return err
	}
	resp := keyResponse(k)
	resp.Key = value
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(resp)
}

func (s *Server) getIntegrationKey(c *fiber.Ctx) error {
	a, _ := Account(c)
	k, err := s.keys.Get(c.UserContext(), a.ID)
	if err != nil {
		return noKey(err)
	}
	return c.JSON(keyResponse(k))
}

func (s *Server) patchIntegrationKey(c *fiber.Ctx) error {
	var req keySettingsRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	if req.AllowedDomains == nil && req.RateLimitPerHour == nil {
		return httperr.Validation(problem.Detail{Field: "body", Code: "empty_patch", Message: "give allowed_domains and/or rate_limit_per_hour"})
	}
	a, _ := Account(c)
	k, err := s.keys.Update(c.UserContext(), a.ID, req.settings())
	if err != nil {
		return noKey(err)
	}
	return c.JSON(keyResponse(k))
}

func (s *Server) deleteIntegrationKey(c *fiber.Ctx) error {
	a, _ := Account(c)
	if err := s.keys.Revoke(c.UserContext(), a.ID); err != nil {
		return noKey(err)
	}
	return c.SendStatus(fiber.StatusNoContent)
}
