package http

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/clientip"
	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/ratelimit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/flow"
)

// Config holds the HTTP settings (from internal/config in production).
type Config struct {
	// BodyLimit bounds every request body but the license photos and the
	// liveness frames (0: DefaultBodyLimit).
	BodyLimit   int // bytes
	ReadTimeout time.Duration
	IdleTimeout time.Duration
	// TrustedProxies (IPs or CIDRs) may tell the client IP in X-Forwarded-For.
	TrustedProxies []string
	// Dev accepts http://localhost origins for integration keys.
	Dev bool
	// AuthLimit bounds POST /auth per client IP and per e-mail. A zero Rate
	// turns it off, which only benchmarks do.
	AuthLimit ratelimit.Limit
	// CreateLimit and GetLimit bound creating and reading verifications per
	// account (zero Rate: off, for benchmarks).
	CreateLimit ratelimit.Limit
	GetLimit    ratelimit.Limit
	// PublicURL is the base of the end user's link (IDGATE_PUBLIC_URL).
	PublicURL string
	// FlowUploadLimit and FlowChallengeLimit bound the end-user API per link
	// (zero Rate: off); FlowBodyLimit bounds its uploads (0:
	// DefaultFlowBodyLimit).
	FlowUploadLimit    ratelimit.Limit
	FlowChallengeLimit ratelimit.Limit
	FlowBodyLimit      int
	// Plan is every account's allowance per verification type; nil means
	// verifier.DefaultPlan.
	Plan verifier.Plan
	// WebhookAllowLoopback accepts loopback webhook_url hosts at creation,
	// matching the sender's IDGATE_WEBHOOK_ALLOW_LOOPBACK (dev and tests).
	WebhookAllowLoopback bool
}

// DefaultBodyLimit is IDGATE_BODY_LIMIT's default, 1 MiB: a JSON body, or
// a logo (at most 512 KiB).
const DefaultBodyLimit = 1 << 20

// DefaultAuthLimit is 5 sign-in attempts per minute (docs/decisions.md,
// Rate limits).
var DefaultAuthLimit = ratelimit.Limit{Rate: 5, Period: time.Minute}

// The per-account limits (docs/decisions.md, Rate limits) on creating
// (100 per hour) and reading (GET /verification, 300 per hour)
// verifications.
var (
	DefaultCreateLimit = ratelimit.Limit{Rate: 100, Period: time.Hour}
	DefaultGetLimit    = ratelimit.Limit{Rate: 300, Period: time.Hour}
)

// ReadyCheck is one dependency /readyz pings (the database always; Redis
// when configured).
type ReadyCheck struct {
	Name  string
	Check func(context.Context) error
	// Degraded marks a dependency the server can work without (Redis: the
	// limiter falls back to in-process counting). Its failure reports
	// status "degraded" with 200, so a load balancer keeps the instance.
	Degraded bool
}

// Deps are everything the server needs; nothing is global.
type Deps struct {
	Store   verifier.Store
	Limiter ratelimit.Limiter
	Auth    *verifier.Authenticator
	Logger  *slog.Logger
	Now     func() time.Time
	Config  Config
	// Ready are checks beyond the Store's Ping.
	Ready []ReadyCheck
	// Flow serves the end-user API under /v/{token}/; nil leaves it out.
	Flow *flow.Flow
	// Webhooks serve the delivery log, retries and secret rotation; a nil
	// Queue leaves them out.
	Webhooks WebhookDeps
	// Unavailable tells an outage of a dependency (the store's
	// sqlstore.Unavailable) from a fault: such errors are answered 503
	// UNAVAILABLE with Retry-After, not 500. Nil: every unmapped error is 500.
	Unavailable func(error) bool
}

// Server is the verifier API.
type Server struct {
	app     *fiber.App
	store   verifier.Store
	limiter ratelimit.Limiter
	auth    *verifier.Authenticator
	keys    verifier.IntegrationKeys
	log     *slog.Logger
	cfg     Config
	ready   []ReadyCheck
	proxies clientip.Trusted
	metrics *metrics
	flow    *flow.Flow
	hooks   webhookHandlers
	outage  func(error) bool

	verifications  *verifier.Verifications
	passphraseKeys verifier.PassphraseKeys
	sessions       verifier.DashboardSessions
}

// New builds the server and its routes.
func New(d Deps) (*Server, error) {
	if d.Store == nil || d.Limiter == nil || d.Auth == nil || d.Logger == nil || d.Now == nil {
		return nil, errors.New("new http server: Store, Limiter, Auth, Logger and Now are required")
	}
	proxies, err := clientip.Parse(d.Config.TrustedProxies)
	if err != nil {
		return nil, err
	}
	plan := d.Config.Plan
	if plan == nil {
		plan = verifier.DefaultPlan
	}
	s := &Server{
		store: d.Store, limiter: d.Limiter, auth: d.Auth, log: d.Logger, cfg: d.Config,
		keys:    verifier.IntegrationKeys{Store: d.Store, Now: d.Now, Dev: d.Config.Dev},
		ready:   append([]ReadyCheck{{Name: "database", Check: d.Store.Ping}}, d.Ready...),
		proxies: proxies,
		metrics: newMetrics(),

		verifications:  &verifier.Verifications{Store: d.Store, Now: d.Now, Plan: plan, AllowLoopbackWebhooks: d.Config.WebhookAllowLoopback},
		passphraseKeys: verifier.PassphraseKeys{Store: d.Store, Now: d.Now},
		sessions:       verifier.DashboardSessions{Store: d.Store, Now: d.Now},
		flow:           d.Flow,
		outage:         d.Unavailable,
		hooks:          webhookHandlers{WebhookDeps: d.Webhooks, verifications: d.Store, now: d.Now},
	}
	if s.cfg.FlowBodyLimit <= 0 {
		s.cfg.FlowBodyLimit = DefaultFlowBodyLimit
	}
	if s.cfg.BodyLimit <= 0 {
		s.cfg.BodyLimit = DefaultBodyLimit
	}
	s.app = fiber.New(fiber.Config{
		// A path matches exactly as written: with fiber's defaults
		// /METRICS and /metrics/ answered as /metrics, past a reverse
		// proxy's rule that keeps /metrics inside (docs/operations.md).
		CaseSensitive: true,
		StrictRouting: true,
		// fasthttp reads a body of up to BodyLimit before any handler and
		// streams a longer one; each route then reads at most its own
		// limit (bound, bodybound.go).
		BodyLimit:         s.cfg.BodyLimit,
		StreamRequestBody: true,
		// fasthttp parses a multipart body into a form before any
		// handler by default: a second copy of a liveness answer's
		// frames (parts past 16 MB in temporary files, where frames must
		// never go), and Go's 1,000-part bound answered a longer answer
		// with a bare 400 before the flow could say what was wrong.
		// parseFrames reads the body itself.
		DisablePreParseMultipartForm: true,
		ReadTimeout:                  d.Config.ReadTimeout,
		IdleTimeout:                  d.Config.IdleTimeout,
		DisableStartupMessage:        true,
		ErrorHandler:                 s.serverError,
	})
	if host := unreachableHost(s.cfg.PublicURL); host != "" {
		// Said to the operator here, not to the person behind the link.
		s.log.Warn("end-user links point at "+host+", which a phone cannot open: set IDGATE_PUBLIC_URL to an address phones reach", "public_url", s.cfg.PublicURL)
	}
	s.routes()
	return s, nil
}

// Serve answers on ln until Shutdown.
func (s *Server) Serve(ln net.Listener) error { return s.app.Listener(ln) }

// Shutdown stops accepting connections and waits for in-flight requests
// until ctx ends, then closes what is left.
func (s *Server) Shutdown(ctx context.Context) error { return s.app.ShutdownWithContext(ctx) }

// serverError answers errors raised before any handler ran (oversize body,
// unreadable request), which bypass the observe middleware; observe itself
// answers every error of the handler chain.
func (s *Server) serverError(c *fiber.Ctx, err error) error {
	start := time.Now()
	s.begin(c)
	var fe *fiber.Error
	if errors.As(err, &fe) {
		c.Locals(localUnreadable, unreadableCause(fe.Message))
	}
	if isFlowPath(c) {
		setFlowHeaders(c)
	}
	werr := s.respond(c, err)
	s.finish(c, start)
	return werr
}

// respond maps domain errors through the table and writes the error body.
// An error the table leaves unmapped that is an outage of a dependency
// (Deps.Unavailable) is a 503 the client may retry, not a 500.
func (s *Server) respond(c *fiber.Ctx, err error) error {
	err = toHTTP(pathHint(c.Path(), err))
	if httperr.From(err).Code == httperr.NotFound && navigatesToLink(c) {
		return linkNotFound(c)
	}
	var he *httperr.Error
	if !errors.As(err, &he) && s.outage != nil && s.outage(err) {
		e := httperr.New(httperr.Unavailable, "a service this request needs is briefly unavailable; try again in a few seconds")
		e.Headers, e.Cause = map[string]string{"Retry-After": outageRetryAfter}, err
		err = e
	}
	return httperr.Respond(c, err, Logger(c))
}

// outageRetryAfter is the Retry-After of a 503 for a dependency outage: a
// PostgreSQL restart takes a few seconds (the fault test measures it).
const outageRetryAfter = "2"
