package http

import (
	"errors"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/qr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/dashboard"
	"github.com/idgate/idgate/verifier/web"
)

// openLink is GET /v/{token}: the end user's pages (verifier/web). Opening
// starts nothing (the first successful flow step does); a live link gets the app,
// which walks the flow API under /v/{token}/; expired, canceled, finished
// and unknown links get a page that says so (410 for ended links, 404 for
// unknown ones), rendered here without script.
func (s *Server) openLink(c *fiber.Ctx) error {
	pageHeaders(c)
	// The token is the credential: keep it out of caches and Referer.
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptLanguage)
	lang := web.PageLang(c.Query("lang"), c.Get(fiber.HeaderAcceptLanguage))
	token := c.Params("token")
	v, err := s.verifications.Open(c.UserContext(), token)
	if errors.Is(err, verifier.ErrUnknownLink) {
		return sendEnded(c, fiber.StatusNotFound, lang, web.Unknown, web.Requester{})
	}
	if err != nil {
		return err
	}
	who, err := s.requester(c, v, token)
	if err != nil {
		return err
	}
	switch v.Status {
	case verifier.StatusPending, verifier.StatusStarted:
		page, err := web.App(lang, who)
		if err != nil {
			return err
		}
		return sendHTML(c, fiber.StatusOK, page)
	case verifier.StatusExpired:
		return sendEnded(c, fiber.StatusGone, lang, web.Expired, who)
	case verifier.StatusCanceled:
		return sendEnded(c, fiber.StatusGone, lang, web.Canceled, who)
	case verifier.StatusManualReview:
		return sendEnded(c, fiber.StatusOK, lang, web.InReview, who)
	}
	return sendEnded(c, fiber.StatusOK, lang, web.Completed, who)
}

// requester is who asks behind the link, as its pages show it: the
// branding of the link's own account (never a template's or the
// verification's: those may change the message, not the identity). An
// account without a display name whose link a site created with its
// integration key is named by that site's host: the Origin the key's
// allowlist admitted, so one of the account's own domains, never a name
// the caller chose (a storefront's link says "shop.example.com asks you
// to verify your identity" until the merchant names the account).
func (s *Server) requester(c *fiber.Ctx, v verifier.Verification, token string) (web.Requester, error) {
	a, err := s.store.GetAccount(c.UserContext(), v.AccountID)
	if err != nil {
		return web.Requester{}, err
	}
	b := a.Branding
	who := web.Requester{Name: b.DisplayName, Accent: web.AccentPath(b.AccentColor), Privacy: b.PrivacyPolicyURL,
		ContactHref: verifier.ContactHref(b.SupportContact)}
	if who.Name == "" {
		who.Name = siteHost(v)
	}
	if b.Logo.SHA256 != "" {
		who.Logo = "/v/" + url.PathEscape(token) + "/logo"
	}
	return who, nil
}

// siteHost is the host (and port, when not the scheme's) of the site
// whose integration key created v, or "".
func siteHost(v verifier.Verification) string {
	st, err := verifier.ParseSettings(v.Options)
	if err != nil || st.SiteOrigin == "" {
		return ""
	}
	u, err := url.Parse(st.SiteOrigin)
	if err != nil {
		return ""
	}
	return u.Host
}

// linkQR is GET /v/{token}/qr.svg: the link itself as a QR code, which a
// computer shows so the end user can continue on a phone. Only live links
// have one.
func (s *Server) linkQR(c *fiber.Ctx) error {
	pageHeaders(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	token := c.Params("token")
	v, err := s.verifications.Open(c.UserContext(), token)
	if errors.Is(err, verifier.ErrUnknownLink) || (err == nil && v.Status != verifier.StatusPending && v.Status != verifier.StatusStarted) {
		return httperr.New(httperr.NotFound, "no live verification behind this link")
	}
	if err != nil {
		return err
	}
	who, err := s.requester(c, v, token)
	if err != nil {
		return err
	}
	code, err := qr.New(s.linkURL(token))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "image/svg+xml")
	return c.SendString(code.SVG(web.QRLabel(web.PageLang(c.Query("lang"), c.Get(fiber.HeaderAcceptLanguage)), who.Name)))
}

// linkLogo is GET /v/{token}/logo: the logo of the account behind the
// link, whatever the link's status (the ended pages show it too), and
// never another account's: the account is the link's own.
func (s *Server) linkLogo(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store") // the token is in the path
	v, err := s.verifications.Open(c.UserContext(), c.Params("token"))
	if errors.Is(err, verifier.ErrUnknownLink) {
		return httperr.New(httperr.NotFound, "no verification behind this link")
	}
	if err != nil {
		return err
	}
	logo, err := s.store.GetAccountLogo(c.UserContext(), v.AccountID)
	if errors.Is(err, verifier.ErrNotFound) {
		return httperr.New(httperr.NotFound, "the requester has no logo")
	}
	if err != nil {
		return err
	}
	return sendLogo(c, logo)
}

// asset is GET /assets/{name}: the pages' script and stylesheet. Their
// paths change with their content and carry no token, so they are cached
// for good.
func (s *Server) asset(c *fiber.Ctx) error {
	a, dash, err := findAsset(c.Path())
	if err != nil {
		return err
	}
	if dash {
		dashboardHeaders(c)
	} else {
		pageHeaders(c)
	}
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	c.Set(fiber.HeaderETag, a.ETag)
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	c.Set(fiber.HeaderContentType, a.ContentType)
	if c.Get(fiber.HeaderIfNoneMatch) == a.ETag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	if strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(a.Gzip)
	}
	return c.Send(a.JS)
}

// findAsset is the end-user pages' or the dashboard's (dash) file at path.
func findAsset(path string) (a *bundle.Asset, dash bool, err error) {
	assets, err := web.Assets()
	if err != nil {
		return nil, false, err
	}
	if a, ok := assets[path]; ok {
		return a, false, nil
	}
	dassets, err := dashboard.Assets()
	if err != nil {
		return nil, false, err
	}
	if d, ok := dassets[path]; ok {
		return d, true, nil
	}
	if a := web.AccentCSS(path); a != nil { // a requester's colour
		return a, false, nil
	}
	return nil, false, fiber.ErrNotFound
}

// pageHeaders are what pages and assets add to the security headers every
// response carries (secheaders): their own CSP, which lets them load their
// script and style, the camera permission and no indexing.
// navigatesToLink reports whether a browser navigated to a path under /v
// (a link typed or pasted short, or with something after it: /v,
// /v/, /v/{token}/extra), as opposed to a page's own API call: a
// navigation asks for HTML first, fetch asks for anything.
func navigatesToLink(c *fiber.Ctx) bool {
	p := c.Path()
	return (c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead) &&
		(p == "/v" || strings.HasPrefix(p, "/v/")) &&
		strings.Contains(c.Get(fiber.HeaderAccept), fiber.MIMETextHTML)
}

// linkNotFound answers such a navigation that leads nowhere with the
// "Link not found" page an unknown token gets, not the API's JSON.
func linkNotFound(c *fiber.Ctx) error {
	pageHeaders(c)
	setFlowHeaders(c)
	lang := web.PageLang(c.Query("lang"), c.Get(fiber.HeaderAcceptLanguage))
	return sendEnded(c, fiber.StatusNotFound, lang, web.Unknown, web.Requester{})
}

func pageHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderContentSecurityPolicy, web.CSP)
	c.Set(fiber.HeaderPermissionsPolicy, web.PermissionsPolicy)
	c.Set("X-Robots-Tag", "noindex")
}

func sendEnded(c *fiber.Ctx, status int, lang string, why web.Ended, who web.Requester) error {
	page, err := web.EndedPage(lang, why, who)
	if err != nil {
		return err
	}
	return sendHTML(c, status, page)
}

func sendHTML(c *fiber.Ctx, status int, page []byte) error {
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(page)
}
