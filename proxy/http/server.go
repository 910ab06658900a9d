package http

import (
	"errors"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/clientip"
	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/secheaders"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/widget"
)

// Limits of request bodies. A webhook carries a result payload (a
// cropped license photo in base64 included); the widget sends a cart ID.
const (
	MaxWebhookBody = 1 << 20
	maxStartBody   = 4 << 10
)

// CustomerTokenHeader carries the Current Customer JWT from the widget.
const CustomerTokenHeader = "Idgate-Customer-Token"

// Routes.
const (
	WidgetPath = proxy.WidgetPath
	storePath  = "/proxy/v1/stores/:hash"
)

// Option configures New.
type Option func(*options)

type options struct {
	fiber   fiber.Config
	app     *proxy.App
	proxies []string
}

// WithApp serves the single-click app's callbacks and settings page.
func WithApp(app *proxy.App) Option {
	return func(o *options) { o.app = app }
}

// WithTrustedProxies makes the client IP (for the start limit, and the
// address the settings page's sign-in names to the verifier) the
// right-most X-Forwarded-For address that is not one of these IPs or
// CIDRs, when, and only when, the connection comes from one of them: a
// load balancer in front of the proxy (clientip.Trusted.Of).
func WithTrustedProxies(proxies []string) Option {
	return func(o *options) { o.proxies = proxies }
}

// New builds the proxy's fiber app. The widget bundle is built here, so a
// broken bundle stops the server at start rather than at the first shopper.
func New(svc *proxy.Service, log *slog.Logger, opts ...Option) (*fiber.App, error) {
	if svc == nil || log == nil {
		return nil, errors.New("new proxy server: service and logger are required")
	}
	bundle, err := widget.Get()
	if err != nil {
		return nil, err
	}
	o := options{fiber: fiber.Config{
		// Paths match exactly as written, as the verifier's do.
		CaseSensitive:         true,
		StrictRouting:         true,
		BodyLimit:             MaxWebhookBody,
		ReadTimeout:           15 * time.Second,
		IdleTimeout:           60 * time.Second,
		DisableStartupMessage: true,
		ErrorHandler:          httperr.ErrorHandler(func(*fiber.Ctx) *slog.Logger { return log }),
	}}
	for _, opt := range opts {
		opt(&o)
	}
	trusted, err := clientip.Parse(o.proxies)
	if err != nil {
		return nil, err
	}
	app := fiber.New(o.fiber)
	h := &handlers{svc: svc, log: log, proxies: trusted}
	app.Use(secheaders.Middleware)
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	app.Get(WidgetPath, serveWidget(bundle))
	app.Get("/openapi.json", serveOpenAPI)
	app.Post(storePath+"/webhook", h.webhook)
	app.Post(storePath+"/order-webhook", h.orderWebhook)
	store := app.Group(storePath, h.cors)
	store.Get("/status", h.status)
	store.Post("/verifications", h.start)
	store.Post("/carry", h.carry)
	if o.app != nil {
		routeApp(app, &appHandlers{app: o.app, svc: svc, log: log, proxies: trusted})
	}
	return app, nil
}

type handlers struct {
	svc     *proxy.Service
	log     *slog.Logger
	proxies clientip.Trusted
}

// clientIP is the request's client address behind the trusted proxies.
func clientIP(proxies clientip.Trusted, c *fiber.Ctx) string {
	return proxies.Of(c.Context().RemoteIP(), c.Get(fiber.HeaderXForwardedFor))
}
