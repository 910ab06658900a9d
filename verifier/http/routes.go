package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/secheaders"
)

// A route is one line of the route table: an endpoint, the most of a body
// it reads, the middleware it runs behind (in order) and its handler.
type route struct {
	method string
	path   string
	body   bodyLimit
	mw     []fiber.Handler
	handle fiber.Handler
	// on is false when the part the route serves is not configured (no
	// Deps.Flow, no webhook Queue): the route is then not registered and
	// answers 404.
	on bool
}

// bodyLimit is the most of a request body a route reads (bound,
// bodybound.go); cut hands the handler a longer body's first limit+1 bytes
// to refuse in its own words instead of answering 413.
type bodyLimit struct {
	limit int
	cut   bool
}

// An audience is a group of the table: the routes one kind of caller uses.
type audience struct {
	name   string
	routes []route
}

// prefix is the method of a table line that is middleware for every route
// under its path (fiber's Use), not an endpoint.
const prefix = "USE"

func mw(h ...fiber.Handler) []fiber.Handler { return h }

// routeTable is every endpoint the server answers, by audience, with its
// body limit and middleware. Every request first passes
// secheaders.Middleware and observe (routes), then reads its body up to
// the route's limit:
//   - std: Config.BodyLimit (IDGATE_BODY_LIMIT, 1 MiB), every JSON body
//     and the logo;
//   - photo: a license photo, up to the flow's MaxImageBytes (10 MiB); a
//     longer one is cut and refused as image_too_large;
//   - frames: a liveness answer's frames, up to Config.FlowBodyLimit
//     (40 MiB). The OpenAPI document (verifier/openapi) describes
//
// each endpoint; TestRouteTableIsTheDocument keeps the two equal.
//
// The middleware:
//   - bearer: a bearer token, or the dashboard's session cookie with its
//     CSRF header (RequireBearer, bearer.go);
//   - bearerOrKey: a bearer token or an integration key (apikey.go);
//   - keyCORS, createPreflight: cross-origin calls with an integration key
//     (cors.go);
//   - session: the dashboard's cookie only (RequireSession, dashboard.go);
//   - requireJSON: a strict JSON body (jsonbody.go);
//   - uploads, challenges: per-link rate limits (limitLink, flow.go);
//   - flowHeaders: no-store and no-referrer on every answer under
//     /v/{token}/, whoever gives it (flow.go).
func (s *Server) routeTable() []audience {
	var (
		bearer      = s.RequireBearer()
		bearerOrKey = s.RequireBearerOrIntegrationKey()
		session     = s.RequireSession()
		uploads     = s.limitLink("upload", s.cfg.FlowUploadLimit)
		challenges  = s.limitLink("challenge", s.cfg.FlowChallengeLimit)

		std    = bodyLimit{limit: s.cfg.BodyLimit}
		photo  = s.photoLimit()
		frames = bodyLimit{limit: s.cfg.FlowBodyLimit}

		always    = true
		withFlow  = s.flow != nil
		withHooks = s.hooks.Queue != nil
		hooks     = s.hooks.withDefaults()
	)
	return []audience{{
		name: "operations: probes, metrics and the API's document",
		routes: []route{
			{"GET", "/healthz", std, nil, s.healthz, always},
			{"GET", "/readyz", std, nil, s.readyz, always},
			{"GET", "/metrics", std, nil, s.metrics.handler(), always},
			{"GET", "/openapi.json", std, nil, s.openAPI, always},
		},
	}, {
		name: "account API: an integration's server (bearer token) and the integration key",
		routes: []route{
			{"POST", "/auth", std, mw(requireJSON), s.postAuth, always},
			{"GET", "/me", std, mw(bearer), s.getMe, always},
			{"PATCH", "/me", std, mw(bearer, requireJSON), s.patchMe, always},
			{"GET", "/me/logo", std, mw(bearer), s.getMeLogo, always},
			{"PUT", "/me/logo", std, mw(bearer), s.putMeLogo, always},
			{"DELETE", "/me/logo", std, mw(bearer), s.deleteMeLogo, always},
			{"POST", "/integration-key", std, mw(bearer, requireJSON), s.postIntegrationKey, always},
			{"GET", "/integration-key", std, mw(bearer), s.getIntegrationKey, always},
			{"PATCH", "/integration-key", std, mw(bearer, requireJSON), s.patchIntegrationKey, always},
			{"DELETE", "/integration-key", std, mw(bearer), s.deleteIntegrationKey, always},

			{"POST", "/verification", std, mw(bearerOrKey, requireJSON), s.postVerification, always},
			{"OPTIONS", "/create-verification", std, nil, createPreflight, always},
			{"POST", "/create-verification", std, mw(keyCORS, bearerOrKey, requireJSON), s.postVerification, always},
			{"GET", "/verification", std, mw(bearer), s.getVerification, always},
			{"DELETE", "/verification", std, mw(bearer), s.deleteVerification, always},
			{"POST", "/verification/cancel", std, mw(bearer), s.cancelVerification, always},
			{"POST", "/verification/review", std, mw(bearer, requireJSON), s.reviewVerification, always},
			{"GET", "/verification/review/image", std, mw(bearer), s.reviewImage, withFlow},
			{"POST", "/verification/purge", std, mw(bearer), s.purgeVerification, withFlow},
			{"GET", "/verifications", std, mw(bearer), s.listVerifications, always},
			{"GET", "/quota", std, mw(bearer), s.getQuota, always},

			{"GET", "/verification/webhook/deliveries", std, mw(bearer), hooks.deliveries, withHooks},
			{"POST", "/verification/webhook/retry", std, mw(bearer), hooks.retry, withHooks},
			{"POST", "/webhook-secret", std, mw(bearer), hooks.rotateSecret, withHooks},

			{"POST", "/templates", std, mw(bearer, requireJSON), s.postTemplate, always},
			{"GET", "/templates", std, mw(bearer), s.listTemplates, always},
			{"GET", "/templates/:id", std, mw(bearer), s.getTemplate, always},
			{"PUT", "/templates/:id", std, mw(bearer, requireJSON), s.putTemplate, always},
			{"DELETE", "/templates/:id", std, mw(bearer), s.deleteTemplate, always},

			{"POST", "/passphrase-keys", std, mw(bearer, requireJSON), s.postPassphraseKey, always},
			{"GET", "/passphrase-keys", std, mw(bearer), s.listPassphraseKeys, always},
			{"GET", "/passphrase-keys/:id", std, mw(bearer), s.getPassphraseKey, always},
			{"DELETE", "/passphrase-keys/:id", std, mw(bearer), s.deletePassphraseKey, always},
		},
	}, {
		name: "dashboard: its page and cookie session (the account API above takes the cookie too)",
		routes: []route{
			{"GET", "/dashboard", std, nil, s.dashboardPage, always},
			{"POST", "/dashboard/session", std, mw(requireJSON), s.postDashboardSession, always},
			{"GET", "/dashboard/session", std, mw(session), s.getDashboardSession, always},
			{"PATCH", "/dashboard/session", std, mw(session, requireJSON), s.patchDashboardSession, always},
			{"DELETE", "/dashboard/session", std, mw(session), s.deleteDashboardSession, always},
		},
	}, {
		name: "end user: the link's pages and the flow API (the token in the path is the credential)",
		routes: []route{
			{"GET", "/v/:token", std, nil, s.openLink, always},
			{"GET", "/v/:token/qr.svg", std, nil, s.linkQR, always},
			{"GET", "/v/:token/logo", std, nil, s.linkLogo, always},
			// After the two above, which set their own headers and
			// answer without calling on.
			{prefix, "/v/:token/", std, nil, flowHeaders, withFlow},
			{"GET", "/v/:token/session", std, nil, s.flowSession, withFlow},
			{"POST", "/v/:token/document", std, mw(uploads, requireJSON), s.flowPick, withFlow},
			{"POST", "/v/:token/license/front", photo, mw(uploads), s.flowFront, withFlow},
			{"POST", "/v/:token/license/back", photo, mw(uploads), s.flowBack, withFlow},
			{"POST", "/v/:token/passport/page", photo, mw(uploads), s.flowPassportPage, withFlow},
			{"POST", "/v/:token/id_card/front", photo, mw(uploads), s.flowIDCardFront, withFlow},
			{"POST", "/v/:token/id_card/back", photo, mw(uploads), s.flowIDCardBack, withFlow},
			{"POST", "/v/:token/liveness", std, mw(challenges), s.flowChallenge, withFlow},
			{"POST", "/v/:token/liveness/:challenge", frames, mw(uploads), s.flowLiveness, withFlow},
			{"POST", "/v/:token/phone", std, mw(uploads, requireJSON), s.flowPhone, withFlow},
			{"POST", "/v/:token/phone/verify", std, mw(uploads, requireJSON), s.flowPhoneVerify, withFlow},
			{"POST", "/v/:token/submit", std, nil, s.flowSubmit, withFlow},
			{"POST", "/v/:token/review", std, nil, s.flowReview, withFlow},
			{"POST", "/v/:token/decline-review", std, nil, s.flowDecline, withFlow},
			{"POST", "/v/:token/test/complete", std, mw(requireJSON), s.flowTestComplete, withFlow},
			// The pages' and the dashboard's scripts, styles and models.
			{"GET", "/assets/:name", std, nil, s.asset, always},
		},
	}}
}

// routes registers the table on the app, behind the middleware every
// request passes: the security headers, observe (request ID, access log,
// metrics, panic recovery) and closeUnread; each route reads its body
// through bound before its own middleware.
func (s *Server) routes() {
	a := s.app
	a.Use(secheaders.Middleware, s.observe, s.closeUnread)
	for _, g := range s.routeTable() {
		for _, r := range g.routes {
			if !r.on {
				continue
			}
			if r.method == prefix {
				a.Use(r.path, r.handle)
				continue
			}
			handlers := append([]fiber.Handler{s.bound(r.body.limit, r.body.cut)}, r.mw...)
			handlers = append(handlers, r.handle)
			if r.method == fiber.MethodGet {
				a.Head(r.path, handlers...) // as fiber's Get
			}
			a.Add(r.method, r.path, handlers...)
		}
	}
}

// photoLimit bounds a license photo by the flow's own bound, which answers
// a longer photo as image_too_large (so the rest of it is never read);
// a FlowBodyLimit set lower than that bound is a plain 413.
func (s *Server) photoLimit() bodyLimit {
	if s.flow == nil || s.flow.Limits.MaxImageBytes <= 0 {
		return bodyLimit{limit: s.cfg.FlowBodyLimit}
	}
	if s.cfg.FlowBodyLimit < s.flow.Limits.MaxImageBytes {
		return bodyLimit{limit: s.cfg.FlowBodyLimit}
	}
	return bodyLimit{limit: s.flow.Limits.MaxImageBytes, cut: true}
}
