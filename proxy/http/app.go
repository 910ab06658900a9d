package http

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"html/template"
	"log/slog"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/clientip"
	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/rulesets"
)

// The single-click app's routes: the callbacks registered with BigCommerce
// (GET, as the control panel sends them) and the settings page's form.
const (
	AuthCallbackPath      = "/bigcommerce/auth"
	LoadCallbackPath      = "/bigcommerce/load"
	UninstallCallbackPath = "/bigcommerce/uninstall"
	RemoveUserPath        = "/bigcommerce/remove_user"
	settingsPath          = "/app/stores/:hash/settings"
	linkPath              = "/app/stores/:hash/link"
	maxSettingsBody       = 8 << 10
)

var (
	//go:embed settings.html
	settingsHTML string
	//go:embed settings.css
	settingsCSS string

	//go:embed apphead.html
	appHeadHTML string

	settingsPage = appPage("settings", settingsHTML, nil)
	// settingsStyleHash lets the page's one inline style through its CSP;
	// nothing else (no script at all) runs.
	settingsStyleHash = func() string {
		sum := sha256.Sum256([]byte(settingsCSS))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}()
)

// appPage parses one of the app's pages with their shared head, which
// inlines settings.css (the one style the pages' CSP lets through).
func appPage(name, body string, funcs template.FuncMap) *template.Template {
	t := template.New(name).Funcs(template.FuncMap{"css": func() template.CSS { return template.CSS(settingsCSS) }}).Funcs(funcs)
	return template.Must(template.Must(t.Parse(appHeadHTML)).Parse(body))
}

type appHandlers struct {
	app     *proxy.App
	svc     *proxy.Service // makes the orders page's verification links
	log     *slog.Logger
	proxies clientip.Trusted
}

func routeApp(r fiber.Router, h *appHandlers) {
	r.Get(AuthCallbackPath, h.auth)
	r.Get(LoadCallbackPath, h.load)
	r.Get(UninstallCallbackPath, h.uninstall)
	r.Get(RemoveUserPath, h.removeUser)
	r.Post(settingsPath, h.save)
	r.Post(linkPath, h.link)
	r.Post(settingsOpenPath, h.openSettings)
	r.Post(ordersPath, h.orders)
	r.Post(reviewPath, h.review)
	r.Post(orderLinkPath, h.shopperLink)
}

// auth: the browser arrives from the control panel with the code; the app
// installs and shows the settings page in the control panel's frame.
func (h *appHandlers) auth(c *fiber.Ctx) error {
	st, s, err := h.app.Install(c.UserContext(), bigcommerce.AuthCallback{
		Code: c.Query("code"), Scope: c.Query("scope"), Context: c.Query("context"),
	})
	if err != nil {
		h.log.Warn("app install refused", "context", c.Query("context"), "err", err)
		return toHTTP(err)
	}
	return h.render(c, fiber.StatusOK, st, s, proxy.SettingsOf(st), false, "")
}

// load: the control panel opens the app.
func (h *appHandlers) load(c *fiber.Ctx) error {
	st, s, err := h.app.Load(c.UserContext(), c.Query("signed_payload_jwt"))
	if err != nil {
		h.log.Warn("app load refused", "err", err)
		return toHTTP(err)
	}
	return h.render(c, fiber.StatusOK, st, s, proxy.SettingsOf(st), false, "")
}

// uninstall: from BigCommerce's servers; the answer is informative only.
func (h *appHandlers) uninstall(c *fiber.Ctx) error {
	out, err := h.app.Uninstall(c.UserContext(), c.Query("signed_payload_jwt"))
	if err != nil {
		h.log.Warn("app uninstall refused", "err", err)
		return toHTTP(err)
	}
	return c.JSON(fiber.Map{"uninstalled": true, "scripts_removed": out.Scripts, "webhooks_removed": out.Webhooks})
}

// removeUser: from BigCommerce's servers.
func (h *appHandlers) removeUser(c *fiber.Ctx) error {
	if err := h.app.RemoveUser(c.UserContext(), c.Query("signed_payload_jwt")); err != nil {
		h.log.Warn("app remove_user refused", "err", err)
		return toHTTP(err)
	}
	return c.JSON(fiber.Map{"removed": true})
}

// save: the settings form. Its session field is both the user's session
// and the CSRF token (a page of another origin cannot read it); besides, a
// POST the browser says came from another site, or whose Origin names
// another host, is refused before it is read. (The page's no-referrer
// policy makes browsers send "Origin: null" even for its own form, so
// Sec-Fetch-Site is the browser's word here.)
func (h *appHandlers) save(c *fiber.Ctx) error {
	if err := ownForm(c); err != nil {
		return err
	}
	hash, sealed := c.Params("hash"), c.FormValue("session")
	in, formErr := settingsForm(c)
	st, s, err := h.app.OpenSession(c.UserContext(), hash, sealed)
	if err != nil {
		return toHTTP(err)
	}
	if formErr != "" {
		return h.render(c, fiber.StatusUnprocessableEntity, st, s, in, false, formErr)
	}
	saved, err := h.app.SaveSettings(c.UserContext(), hash, sealed, in)
	var inputErr *proxy.InputError
	if asInput(err, &inputErr) {
		return h.render(c, fiber.StatusUnprocessableEntity, st, s, in, false, inputErr.Message)
	}
	if err != nil {
		return toHTTP(err)
	}
	h.log.Info("app settings saved", "store", hash, "user", s.UserID)
	return h.render(c, fiber.StatusOK, saved, s, proxy.SettingsOf(saved), true, "")
}

// link: "Create the integration key". The merchant's verifier password
// goes to the verifier and nowhere else (not logged, not shown back); the
// page shows the key made, which is publishable.
func (h *appHandlers) link(c *fiber.Ctx) error {
	if err := ownForm(c); err != nil {
		return err
	}
	hash, sealed := c.Params("hash"), c.FormValue("session")
	st, s, err := h.app.OpenSession(c.UserContext(), hash, sealed)
	if err != nil {
		return toHTTP(err)
	}
	mode := c.FormValue("key_mode")
	if mode != "test" && mode != "live" {
		return h.renderPage(c, fiber.StatusUnprocessableEntity, st, s, proxy.SettingsOf(st), page{linkError: "choose the test or the live key", email: c.FormValue("email")})
	}
	linked, err := h.app.LinkAccount(c.UserContext(), hash, sealed, proxy.LinkRequest{
		Email: c.FormValue("email"), Password: bigcommerce.Secret(c.FormValue("password")), Test: mode == "test",
		ClientIP: clientIP(h.proxies, c),
	})
	var inputErr *proxy.InputError
	switch {
	case asInput(err, &inputErr):
		return h.renderPage(c, fiber.StatusUnprocessableEntity, st, s, proxy.SettingsOf(st), page{linkError: inputErr.Message, email: c.FormValue("email")})
	case errors.Is(err, proxy.ErrUpstream):
		h.log.Warn("app link failed", "store", hash, "err", err)
		return h.renderPage(c, fiber.StatusServiceUnavailable, st, s, proxy.SettingsOf(st), page{linkError: "idgate did not answer as expected; try again in a moment", email: c.FormValue("email")})
	case err != nil:
		return toHTTP(err)
	}
	h.log.Info("app linked", "store", hash, "user", s.UserID)
	return h.renderPage(c, fiber.StatusOK, linked, s, proxy.SettingsOf(linked), page{linked: true})
}

// ownForm admits a form the app's own pages posted (every app form carries
// the sealed session, which is its CSRF token too; this refuses the rest
// before it is read) and marks the answer uncacheable.
func ownForm(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	if site := c.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return httperr.New(httperr.Forbidden, "the app's forms are posted from its own pages only")
	}
	if o := c.Get(fiber.HeaderOrigin); o != "" && o != "null" {
		if u, err := url.Parse(o); err != nil || !strings.EqualFold(u.Host, string(c.Request().Host())) {
			return httperr.New(httperr.Forbidden, "the app's forms are posted from its own pages only")
		}
	}
	if !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationForm) {
		return httperr.New(httperr.UnsupportedMediaType, "send the form")
	}
	if len(c.Body()) > maxSettingsBody {
		return httperr.New(httperr.PayloadTooLarge, "request body too large")
	}
	return nil
}

// settingsForm reads the form; a value no control offers is an error the
// page shows.
func settingsForm(c *fiber.Ctx) (proxy.Settings, string) {
	in := proxy.Settings{
		HoldCheckout: c.FormValue("hold_checkout") == "1", OrderGuard: c.FormValue("order_guard") == "1",
		TestMode: c.FormValue("test_mode") == "1", GuestToAccount: c.FormValue("guest_to_account") == "1",
	}
	in.Storefronts = strings.Fields(strings.ReplaceAll(c.FormValue("storefronts"), ",", " "))
	in.Triggers.ShipToCountries = proxy.SplitList(c.FormValue("ship_to_countries"))
	in.Triggers.ShipToStates = proxy.SplitList(c.FormValue("ship_to_states"))
	if t := strings.TrimSpace(c.FormValue("min_total")); t != "" {
		cents, err := proxy.ParseCents(t)
		if err != nil {
			return in, "the minimum order total: want an amount such as 50 or 49.99"
		}
		in.Triggers.MinTotalCents = cents
	}
	release, err := strconv.Atoi(c.FormValue("release_status"))
	if err != nil {
		return in, "choose where verified orders go"
	}
	in.ReleaseStatus = release
	days, err := strconv.Atoi(strings.TrimSpace(c.FormValue("reuse_days")))
	if err != nil {
		return in, "the days a verification lasts: want a whole number"
	}
	in.ReuseDays = days
	in.Ruleset.RequireAuthentic = c.FormValue("require_authentic") == "1"
	switch f := c.FormValue("min_face_match"); f {
	case "none":
	case string(rulesets.TierDefiniteMatch), string(rulesets.TierLikelyMatch), string(rulesets.TierPossibleMatch):
		in.Ruleset.MinFaceMatch = rulesets.Tier(f)
	default:
		return in, "choose how sure the face match must be"
	}
	switch c.FormValue("min_age") {
	case "0":
	case "18":
		in.Ruleset.RequireOver18 = true
	case "21":
		in.Ruleset.RequireOver21 = true
	default:
		return in, "choose a minimum age"
	}
	return in, ""
}

// pageData is what settings.html renders.
type pageData struct {
	Action, LinkAction string
	Session            string
	// StoreDomains are the hosts the integration key is made for;
	// StoreURL the store's own address, always one of them; Storefronts
	// the others, one a line; OffKey those the key does not allow yet.
	StoreDomains, StoreURL, Storefronts, OffKey string
	Linked                                      bool
	// IntegrationKey is the store's key, publishable; AccountEmail the
	// verifier account it was made on (empty when linked by hand), Email
	// the link form's e-mail. No secret of the account is ever here.
	IntegrationKey, AccountEmail, Email string
	// JustLinked and LinkError answer "Create the integration key";
	// TestKey chooses the form's mode (the store's test mode).
	JustLinked bool
	LinkError  string
	TestKey    bool
	Settings   proxy.Settings
	Face       string
	Age        int
	MinTotal   string
	Countries  string
	States     string
	Saved      bool
	Error      string
	// Releases are the statuses offered for verified orders, besides
	// "where it was" (proxy.ReleaseAsBefore).
	Releases []proxy.ReleaseChoice
	// Orders and Settings are the pages' links to each other (forms
	// posting the session).
	OrdersAction, SettingsAction string
}

// page is what one answer adds to the settings page: a notice and the
// link form's state.
type page struct {
	saved, linked      bool
	formErr, linkError string
	email              string // the link form's e-mail, as typed
}

// render writes the settings page after a load or a save.
func (h *appHandlers) render(c *fiber.Ctx, status int, st *proxy.Store, s proxy.Session, in proxy.Settings, saved bool, formErr string) error {
	return h.renderPage(c, status, st, s, in, page{saved: saved, formErr: formErr})
}

// renderPage writes the settings page.
func (h *appHandlers) renderPage(c *fiber.Ctx, status int, st *proxy.Store, s proxy.Session, in proxy.Settings, p page) error {
	email := p.email
	if email == "" {
		email = st.VerifierAccountEmail
	}
	d := pageData{
		Action: appPath(settingsPath, st.Hash), LinkAction: appPath(linkPath, st.Hash),
		Session: h.app.SealSession(s), StoreDomains: strings.Join(proxy.StorefrontHosts(st), ", "),
		StoreURL: st.URL, Storefronts: strings.Join(in.Storefronts, "\n"), OffKey: strings.Join(st.HostsOffKey(), ", "),
		Linked: st.Linked(), IntegrationKey: st.IntegrationKey, AccountEmail: st.VerifierAccountEmail, Email: email,
		JustLinked: p.linked, LinkError: p.linkError, TestKey: st.TestMode,
		Settings: in, Face: string(in.Ruleset.MinFaceMatch), Saved: p.saved, Error: p.formErr,
		MinTotal: proxy.FormatCents(in.Triggers.MinTotalCents), Countries: strings.Join(in.Triggers.ShipToCountries, ", "),
		States: strings.Join(in.Triggers.ShipToStates, ", "), Releases: proxy.ReleaseChoices,
		OrdersAction: appPath(ordersPath, st.Hash),
	}
	if d.Face == "" {
		d.Face = "none"
	}
	switch {
	case in.Ruleset.RequireOver21:
		d.Age = 21
	case in.Ruleset.RequireOver18:
		d.Age = 18
	}
	return h.send(c, status, st.Hash, settingsPage, d)
}

// send writes one of the app's pages: never cached, framed only by the
// store's control panel, posting only to itself, running no script.
func (h *appHandlers) send(c *fiber.Ctx, status int, hash string, page *template.Template, data any) error {
	var b bytes.Buffer
	if err := page.Execute(&b, data); err != nil {
		return httperr.InternalError(err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; style-src "+settingsStyleHash+
		"; form-action 'self'; base-uri 'none'; frame-ancestors "+h.app.ControlPanelOrigin(hash))
	// X-Frame-Options cannot name an origin (ALLOW-FROM is gone from
	// browsers); frame-ancestors above is the rule.
	c.Response().Header.Del(fiber.HeaderXFrameOptions)
	c.Type("html", "utf-8")
	return c.Status(status).Send(b.Bytes())
}
