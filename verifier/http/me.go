package http

import (
	"errors"
	"mime"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/problem"
	"github.com/idgate/idgate/verifier"
)

type accountResponse struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
	// Livemode is false when the token is a test-mode token (docs/test-mode.md).
	Livemode bool             `json:"livemode"`
	Branding brandingResponse `json:"branding"`
}

// brandingResponse is the requester's identity its links show
// (docs/api.md); null where unset. Logo is where the account reads its own logo
// back (GET /me/logo); end users get it from their link.
type brandingResponse struct {
	DisplayName      *string       `json:"display_name"`
	AccentColor      *string       `json:"accent_color"`
	SupportContact   *string       `json:"support_contact"`
	PrivacyPolicyURL *string       `json:"privacy_policy_url"`
	Logo             *logoResponse `json:"logo"`
}

type logoResponse struct {
	URL         string `json:"url"`
	ContentType string `json:"content_type"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	SHA256      string `json:"sha256"`
}

func newAccountResponse(a verifier.Account, m verifier.Mode) accountResponse {
	b := a.Branding
	orNull := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	out := accountResponse{ID: a.ID, Email: a.Email, CreatedAt: a.CreatedAt, Livemode: m.Livemode(),
		Branding: brandingResponse{DisplayName: orNull(b.DisplayName), AccentColor: orNull(b.AccentColor),
			SupportContact: orNull(b.SupportContact), PrivacyPolicyURL: orNull(b.PrivacyPolicyURL)}}
	if l := b.Logo; l.SHA256 != "" {
		out.Branding.Logo = &logoResponse{URL: "/me/logo", ContentType: l.ContentType, Width: l.Width, Height: l.Height, SHA256: l.SHA256}
	}
	return out
}

// getMe is GET /me: the signed-in account, read from the store: the
// authenticated identity is a cached copy without the branding
// (verifier.Authenticate), which a PATCH just made must show at once.
func (s *Server) getMe(c *fiber.Ctx) error {
	a, _ := Account(c)
	return s.answerAccount(c, a.ID)
}

// patchMeRequest is PATCH /me: only the branding changes through the API
// (e-mail and password are the CLI's). A member left out or null keeps
// its value; "" clears an optional one.
type patchMeRequest struct {
	Branding *struct {
		DisplayName      *string `json:"display_name"`
		AccentColor      *string `json:"accent_color"`
		SupportContact   *string `json:"support_contact"`
		PrivacyPolicyURL *string `json:"privacy_policy_url"`
	} `json:"branding"`
}

// patchMe is PATCH /me: changes the account's branding and answers the
// account as GET /me does.
func (s *Server) patchMe(c *fiber.Ctx) error {
	var req patchMeRequest
	if err := DecodeJSON(c.Body(), &req); err != nil {
		return err
	}
	if req.Branding == nil {
		return httperr.Validation(problem.Detail{Field: "branding", Code: "required", Message: "give the branding members to change"})
	}
	p := verifier.BrandingPatch{DisplayName: req.Branding.DisplayName, AccentColor: req.Branding.AccentColor,
		SupportContact: req.Branding.SupportContact, PrivacyPolicyURL: req.Branding.PrivacyPolicyURL}
	a, _ := Account(c)
	a, err := s.store.UpdateAccount(c.UserContext(), a.ID, func(cur *verifier.Account) error {
		if err := cur.Branding.Apply(p); err != nil {
			return err
		}
		cur.UpdatedAt = s.verifications.Now()
		return nil
	})
	if err != nil {
		return err
	}
	return c.JSON(newAccountResponse(a, Mode(c)))
}

// logoTypes are the Content-Types PUT /me/logo takes; the bytes are
// sniffed and re-encoded whatever the header says (verifier.NewLogo).
var logoTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true}

// putMeLogo is PUT /me/logo: the body is the picture itself (PNG, JPEG or
// WebP, at most 512 KiB). The stored logo is our own PNG of it.
func (s *Server) putMeLogo(c *fiber.Ctx) error {
	mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || !logoTypes[mt] {
		return httperr.New(httperr.UnsupportedMediaType, "send the logo as image/png, image/jpeg or image/webp (SVG is refused: it can carry script)")
	}
	logo, err := verifier.NewLogo(c.Body())
	if err != nil {
		code := "invalid_image"
		if errors.Is(err, verifier.ErrLogoTooLarge) {
			code = "too_large"
		}
		return httperr.Validation(problem.Detail{Field: "logo", Code: code, Message: err.Error()})
	}
	a, _ := Account(c)
	if err := s.store.PutAccountLogo(c.UserContext(), a.ID, &logo, s.verifications.Now()); err != nil {
		return err
	}
	return s.answerAccount(c, a.ID)
}

// deleteMeLogo is DELETE /me/logo: the pages show the name alone again.
func (s *Server) deleteMeLogo(c *fiber.Ctx) error {
	a, _ := Account(c)
	if err := s.store.PutAccountLogo(c.UserContext(), a.ID, nil, s.verifications.Now()); err != nil {
		return err
	}
	return s.answerAccount(c, a.ID)
}

// getMeLogo is GET /me/logo: the account's own logo (the dashboard's
// preview).
func (s *Server) getMeLogo(c *fiber.Ctx) error {
	a, _ := Account(c)
	logo, err := s.store.GetAccountLogo(c.UserContext(), a.ID)
	if errors.Is(err, verifier.ErrNotFound) {
		return httperr.New(httperr.NotFound, "this account has no logo")
	}
	if err != nil {
		return err
	}
	return sendLogo(c, logo)
}

func (s *Server) answerAccount(c *fiber.Ctx, id string) error {
	a, err := s.store.GetAccount(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newAccountResponse(a, Mode(c)))
}

// sendLogo answers a stored logo: our own PNG, which no browser may take
// for anything else, and which may do nothing even opened on its own.
func sendLogo(c *fiber.Ctx, l verifier.Logo) error {
	c.Set(fiber.HeaderContentType, l.ContentType)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; sandbox")
	c.Set(fiber.HeaderETag, `"`+l.SHA256+`"`)
	return c.Send(l.Body)
}
