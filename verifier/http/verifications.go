package http

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
)

// verificationResponse is a verification as the API shows it. The shape
// follows the status: result data (result, completed_at, pii_purged_at)
// only on completed and manual_review; started_at from the first step on,
// except on expired and canceled, which show no progress or result at all.
// url appears only in the answer to creation: only the token's hash is
// stored, so it cannot be shown again.
type verificationResponse struct {
	ID     string          `json:"id"`
	URL    string          `json:"url,omitempty"`
	Status verifier.Status `json:"status"`
	// Livemode is false for a test verification (docs/test-mode.md), true otherwise.
	Livemode    bool            `json:"livemode"`
	Type        verifier.Type   `json:"type"`
	ExternalID  string          `json:"external_id,omitempty"`
	TemplateID  string          `json:"template_id,omitempty"`
	CreatedAt   time.Time       `json:"created_at"`
	ExpiresAt   time.Time       `json:"expires_at"`
	StartedAt   *time.Time      `json:"started_at,omitempty"`
	CompletedAt *time.Time      `json:"completed_at,omitempty"`
	PIIPurgedAt *time.Time      `json:"pii_purged_at,omitempty"`
	Result      json.RawMessage `json:"result,omitempty"`
	// WebhookStatus: pending, delivered or failed, when a delivery was enqueued.
	WebhookStatus string `json:"webhook_status,omitempty"`
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func toVerificationResponse(v verifier.Verification) verificationResponse {
	r := verificationResponse{ID: v.ID, Status: v.Status, Livemode: v.Mode.Livemode(), Type: v.Type, ExternalID: v.ExternalID,
		TemplateID: v.TemplateID, CreatedAt: v.CreatedAt, ExpiresAt: v.ExpiresAt, WebhookStatus: v.WebhookStatus}
	switch v.Status {
	case verifier.StatusStarted:
		r.StartedAt = optTime(v.StartedAt)
	case verifier.StatusCompleted, verifier.StatusManualReview:
		r.StartedAt, r.CompletedAt, r.PIIPurgedAt = optTime(v.StartedAt), optTime(v.CompletedAt), optTime(v.PIIPurgedAt)
		if len(v.Result) > 0 {
			r.Result = v.Result
		}
	}
	return r
}

// postVerification is POST /verification and POST /create-verification
// (the same handler): a bearer token or an integration key, the same
// answer for both.
func (s *Server) postVerification(c *fiber.Ctx) error {
	a, _ := Account(c)
	if err := s.limitAccount(c, modeKey(c, "create:")+a.ID, s.cfg.CreateLimit, "verification create rate limit exceeded"); err != nil {
		return err
	}
	var req verifier.CreateRequest
	if len(c.Body()) > 0 {
		if err := DecodeJSON(c.Body(), &req); err != nil {
			return err
		}
	}
	if _, ok := IntegrationKey(c); ok {
		// The allowlist admitted this Origin (RequireBearerOrIntegrationKey):
		// the site the end user's page may lead back to.
		req.SiteOrigin = c.Get(fiber.HeaderOrigin)
	}
	created, err := s.verifications.Create(c.UserContext(), a.ID, req)
	if err != nil {
		return err
	}
	resp := toVerificationResponse(created.Verification)
	resp.URL = s.linkURL(created.Token)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(resp)
}

// modeKey is a rate-limit key prefix of the caller's mode: test creates and
// reads have limits of their own, so a CI run in test mode never throttles
// live traffic (nor the reverse).
func modeKey(c *fiber.Ctx, prefix string) string {
	if Mode(c) == verifier.ModeTest {
		return prefix + "test:"
	}
	return prefix
}

// linkURL is the end user's link: the public base URL, /v/ and the token.
func (s *Server) linkURL(token string) string {
	return strings.TrimSuffix(s.cfg.PublicURL, "/") + "/v/" + token
}

// queryID is the required ?id= of the single-verification endpoints. A
// malformed ID names no verification (404), as the store contract says.
func queryID(c *fiber.Ctx) (string, error) {
	id := c.Query("id")
	if id == "" {
		return "", httperr.Validation(problem.Detail{Field: "id", Code: "required", Message: "give the verification's id as ?id="})
	}
	return id, nil
}

// getVerification is GET /verification?id=.
func (s *Server) getVerification(c *fiber.Ctx) error {
	a, _ := Account(c)
	if err := s.limitAccount(c, modeKey(c, "get:")+a.ID, s.cfg.GetLimit, "verification read rate limit exceeded"); err != nil {
		return err
	}
	id, err := queryID(c)
	if err != nil {
		return err
	}
	v, err := s.verifications.Get(c.UserContext(), a.ID, id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(toVerificationResponse(v))
}

// cancelVerification is POST /verification/cancel?id=: pending or started
// only, 409 CONFLICT otherwise.
func (s *Server) cancelVerification(c *fiber.Ctx) error {
	a, _ := Account(c)
	id, err := queryID(c)
	if err != nil {
		return err
	}
	v, err := s.verifications.Cancel(c.UserContext(), a.ID, id)
	if err != nil {
		return err
	}
	return c.JSON(toVerificationResponse(v))
}

// reviewVerification is POST /verification/review?id=: the human decision
// on a verification in manual_review, which completes it.
func (s *Server) reviewVerification(c *fiber.Ctx) error {
	a, _ := Account(c)
	id, err := queryID(c)
	if err != nil {
		return err
	}
	var req struct {
		Approved *bool  `json:"approved"`
		Reason   string `json:"reason"`
	}
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	if req.Approved == nil {
		return httperr.Validation(problem.Detail{Field: "approved", Code: "required", Message: "must be true or false"})
	}
	v, err := s.verifications.DecideReview(c.UserContext(), a.ID, id, *req.Approved, req.Reason)
	if err != nil {
		return err
	}
	return c.JSON(toVerificationResponse(v))
}

// deleteVerification is DELETE /verification?id=: gone from every read,
// data dropped, never a webhook.
func (s *Server) deleteVerification(c *fiber.Ctx) error {
	a, _ := Account(c)
	id, err := queryID(c)
	if err != nil {
		return err
	}
	if err := s.verifications.Delete(c.UserContext(), a.ID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type verificationList struct {
	Items      []verificationResponse `json:"items"`
	NextCursor string                 `json:"next_cursor,omitempty"`
}

// listVerifications is GET /verifications with optional status (comma-
// separated), created_from, created_before (RFC 3339), external_id, limit
// and cursor.
func (s *Server) listVerifications(c *fiber.Ctx) error {
	a, _ := Account(c)
	f, err := listFilter(c)
	if err != nil {
		return err
	}
	page, err := s.verifications.List(c.UserContext(), a.ID, f)
	if err != nil {
		return err
	}
	out := verificationList{Items: make([]verificationResponse, len(page.Items)), NextCursor: page.NextCursor}
	for i, v := range page.Items {
		out.Items[i] = toVerificationResponse(v)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(out)
}

func listFilter(c *fiber.Ctx) (verifier.VerificationFilter, error) {
	var f verifier.VerificationFilter
	var details []problem.Detail
	if s := c.Query("status"); s != "" {
		for _, st := range strings.Split(s, ",") {
			f.Statuses = append(f.Statuses, verifier.Status(strings.TrimSpace(st)))
		}
	}
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"created_from", &f.CreatedFrom}, {"created_before", &f.CreatedBefore}} {
		if s := c.Query(p.name); s != "" {
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				details = append(details, problem.Detail{Field: p.name, Code: "invalid_time", Message: "must be an RFC 3339 time such as 2026-11-01T00:00:00Z"})
			}
			*p.dst = t
		}
	}
	f.ExternalID = c.Query("external_id")
	if s := c.Query("limit"); s != "" {
		n, err := strconv.Atoi(s)
		switch bounds := "1 to " + strconv.Itoa(verifier.MaxListLimit); {
		case err != nil && !isDigits(s):
			details = append(details, problem.Detail{Field: "limit", Code: "wrong_type", Message: "must be an integer from " + bounds})
		case err != nil || n < 1 || n > verifier.MaxListLimit:
			details = append(details, problem.Detail{Field: "limit", Code: "out_of_range", Message: "must be " + bounds})
		}
		f.Limit = n
	}
	f.Cursor = c.Query("cursor")
	if len(details) > 0 {
		return f, httperr.Validation(details...)
	}
	return f, nil
}

// isDigits: s is an optionally signed run of decimal digits, an integer
// however large.
func isDigits(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	return s != "" && strings.Trim(s, "0123456789") == ""
}
