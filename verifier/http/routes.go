package http

import (
	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/secheaders"
)

// A route is one line of the route table: an endpoint, the middleware it
// runs behind (in order) and its handler.
type route struct {
	method string
	path   string
	mw     []fiber.Handler
	handle fiber.Handler
	// on is false when the part the route serves is not configured (no
	// Deps.Flow, no webhook Queue): the route is then not registered and
	// answers 404.
	on bool
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
// middleware. Every request first passes secheaders.Middleware, observe
// and limitBody (routes). The OpenAPI document (verifier/openapi) describes
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

		always    = true
		withFlow  = s.flow != nil
		withHooks = s.hooks.Queue != nil
		hooks     = s.hooks.withDefaults()
	)
	return []audience{{
		name: "operations: probes, metrics and the API's document",
		routes: []route{
			{"GET", "/healthz", nil, s.healthz, always},
			{"GET", "/readyz", nil, s.readyz, always},
			{"GET", "/metrics", nil, s.metrics.handler(), always},
			{"GET", "/openapi.json", nil, s.openAPI, always},
		},
	}, {
		name: "account API: an integration's server (bearer token) and the integration key",
		routes: []route{
			{"POST", "/auth", mw(requireJSON), s.postAuth, always},
			{"GET", "/me", mw(bearer), s.getMe, always},
			{"PATCH", "/me", mw(bearer, requireJSON), s.patchMe, always},
			{"GET", "/me/logo", mw(bearer), s.getMeLogo, always},
			{"PUT", "/me/logo", mw(bearer), s.putMeLogo, always},
			{"DELETE", "/me/logo", mw(bearer), s.deleteMeLogo, always},
			{"POST", "/integration-key", mw(bearer, requireJSON), s.postIntegrationKey, always},
			{"GET", "/integration-key", mw(bearer), s.getIntegrationKey, always},
			{"PATCH", "/integration-key", mw(bearer, requireJSON), s.patchIntegrationKey, always},
			{"DELETE", "/integration-key", mw(bearer), s.deleteIntegrationKey, always},

			{"POST", "/verification", mw(bearerOrKey, requireJSON), s.postVerification, always},
			{"OPTIONS", "/create-verification", nil, createPreflight, always},
			{"POST", "/create-verification", mw(keyCORS, bearerOrKey, requireJSON), s.postVerification, always},
			{"GET", "/verification", mw(bearer), s.getVerification, always},
			{"DELETE", "/verification", mw(bearer), s.deleteVerification, always},
			{"POST", "/verification/cancel", mw(bearer), s.cancelVerification, always},
			{"POST", "/verification/review", mw(bearer, requireJSON), s.reviewVerification, always},
			{"GET", "/verification/review/image", mw(bearer), s.reviewImage, withFlow},
			{"POST", "/verification/purge", mw(bearer), s.purgeVerification, withFlow},
			{"GET", "/verifications", mw(bearer), s.listVerifications, always},
			{"GET", "/quota", mw(bearer), s.getQuota, always},

			{"GET", "/verification/webhook/deliveries", mw(bearer), hooks.deliveries, withHooks},
			{"POST", "/verification/webhook/retry", mw(bearer), hooks.retry, withHooks},
			{"POST", "/webhook-secret", mw(bearer), hooks.rotateSecret, withHooks},

			{"POST", "/templates", mw(bearer, requireJSON), s.postTemplate, always},
			{"GET", "/templates", mw(bearer), s.listTemplates, always},
			{"GET", "/templates/:id", mw(bearer), s.getTemplate, always},
			{"PUT", "/templates/:id", mw(bearer, requireJSON), s.putTemplate, always},
			{"DELETE", "/templates/:id", mw(bearer), s.deleteTemplate, always},

			{"POST", "/passphrase-keys", mw(bearer, requireJSON), s.postPassphraseKey, always},
			{"GET", "/passphrase-keys", mw(bearer), s.listPassphraseKeys, always},
			{"GET", "/passphrase-keys/:id", mw(bearer), s.getPassphraseKey, always},
			{"DELETE", "/passphrase-keys/:id", mw(bearer), s.deletePassphraseKey, always},
		},
	}, {
		name: "dashboard: its page and cookie session (the account API above takes the cookie too)",
		routes: []route{
			{"GET", "/dashboard", nil, s.dashboardPage, always},
			{"POST", "/dashboard/session", mw(requireJSON), s.postDashboardSession, always},
			{"GET", "/dashboard/session", mw(session), s.getDashboardSession, always},
			{"PATCH", "/dashboard/session", mw(session, requireJSON), s.patchDashboardSession, always},
			{"DELETE", "/dashboard/session", mw(session), s.deleteDashboardSession, always},
		},
	}, {
		name: "end user: the link's pages and the flow API (the token in the path is the credential)",
		routes: []route{
			{"GET", "/v/:token", nil, s.openLink, always},
			{"GET", "/v/:token/qr.svg", nil, s.linkQR, always},
			{"GET", "/v/:token/logo", nil, s.linkLogo, always},
			// After the two above, which set their own headers and
			// answer without calling on.
			{prefix, "/v/:token/", nil, flowHeaders, withFlow},
			{"GET", "/v/:token/session", nil, s.flowSession, withFlow},
			{"POST", "/v/:token/license/front", mw(uploads), s.flowFront, withFlow},
			{"POST", "/v/:token/license/back", mw(uploads), s.flowBack, withFlow},
			{"POST", "/v/:token/liveness", mw(challenges), s.flowChallenge, withFlow},
			{"POST", "/v/:token/liveness/:challenge", mw(uploads), s.flowLiveness, withFlow},
			{"POST", "/v/:token/phone", mw(uploads, requireJSON), s.flowPhone, withFlow},
			{"POST", "/v/:token/phone/verify", mw(uploads, requireJSON), s.flowPhoneVerify, withFlow},
			{"POST", "/v/:token/submit", nil, s.flowSubmit, withFlow},
			{"POST", "/v/:token/review", nil, s.flowReview, withFlow},
			{"POST", "/v/:token/decline-review", nil, s.flowDecline, withFlow},
			{"POST", "/v/:token/test/complete", mw(requireJSON), s.flowTestComplete, withFlow},
			// The pages' and the dashboard's scripts, styles and models.
			{"GET", "/assets/:name", nil, s.asset, always},
		},
	}}
}

// routes registers the table on the app, behind the middleware every
// request passes: the security headers, observe (request ID, access log,
// metrics, panic recovery) and limitBody.
func (s *Server) routes() {
	a := s.app
	a.Use(secheaders.Middleware, s.observe, s.limitBody)
	for _, g := range s.routeTable() {
		for _, r := range g.routes {
			if !r.on {
				continue
			}
			if r.method == prefix {
				a.Use(r.path, r.handle)
				continue
			}
			handlers := append(r.mw[:len(r.mw):len(r.mw)], r.handle)
			if r.method == fiber.MethodGet {
				a.Head(r.path, handlers...) // as fiber's Get
			}
			a.Add(r.method, r.path, handlers...)
		}
	}
}
