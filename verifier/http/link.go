package http

import (
	"bytes"
	"errors"
	"html/template"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/verifier"
)

// linkPage is the end user's page behind the url. It is the seed of the
// end-user flow: for now it says where the verification stands and, for a
// live link, that the license scan comes next.
var linkPage = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}} · ID verification</title></head>
<body><main><h1>{{.Title}}</h1><p>{{.Body}}</p>{{if .Message}}<p>{{.Message}}</p>{{end}}</main></body></html>
`))

type linkView struct {
	Title, Body, Message string
}

// openLink is GET /v/{token}. The first open of a pending link marks it
// started; expired, canceled, finished and unknown links get a page that
// says so (410 for ended links, 404 for unknown ones).
func (s *Server) openLink(c *fiber.Ctx) error {
	// The token is the credential: keep it out of caches and Referer.
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("Referrer-Policy", "no-referrer")
	c.Set("X-Robots-Tag", "noindex")
	v, err := s.verifications.Open(c.UserContext(), c.Params("token"))
	if errors.Is(err, verifier.ErrUnknownLink) {
		return renderLink(c, fiber.StatusNotFound, linkView{"Link not found",
			"This verification link is not valid. Check that you opened the whole link, or ask the sender for a new one.", ""})
	}
	if err != nil {
		return err
	}
	switch v.Status {
	case verifier.StatusPending, verifier.StatusStarted:
		return renderLink(c, fiber.StatusOK, linkView{"Verify your identity",
			"Your verification has started. Scanning your driver's license comes next; that step is not available yet.", v.Message})
	case verifier.StatusExpired:
		return renderLink(c, fiber.StatusGone, linkView{"Link expired",
			"This verification link has expired. Ask the sender for a new one.", ""})
	case verifier.StatusCanceled:
		return renderLink(c, fiber.StatusGone, linkView{"Verification canceled",
			"This verification was canceled by the sender. Ask them for a new link if you still need to verify.", ""})
	}
	return renderLink(c, fiber.StatusOK, linkView{"Verification complete",
		"This verification is already complete. You can close this page.", ""})
}

func renderLink(c *fiber.Ctx, status int, v linkView) error {
	var b bytes.Buffer
	if err := linkPage.Execute(&b, v); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(b.Bytes())
}
