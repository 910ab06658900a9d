// Package http is the verifier's HTTP server on gofiber v2 (imported as
// vhttp or verifierhttp, beside proxy/http). New builds it from Deps and
// Config; nothing is global. It serves four audiences:
//   - the account API, with a bearer token or, for creating verifications,
//     a publishable integration key: sign-in (signin.go), verifications
//     (verifications.go), integration keys, templates, passphrase keys,
//     quota, webhook deliveries and secrets (webhook.go), purge (purge.go);
//   - the dashboard: its page and cookie session (dashboard.go);
//   - the end user behind a verification's link: the pages and QR code
//     (pages.go) and the flow API under /v/{token}/ (flow.go, flowframes.go,
//     flowphone.go; testcomplete.go is the test-mode endpoint);
//   - operations: /healthz, /readyz (health.go), /metrics and /openapi.json.
//
// routes.go is the one route table: every endpoint, grouped by these
// audiences, with the middleware it runs behind (TestRouteTableIsTheDocument
// keeps it equal to the OpenAPI document). Middleware: observe.go (request
// ID, access log, metrics, panic recovery), bearer.go and apikey.go
// (authentication), limits.go (rate limits), jsonbody.go (strict JSON
// bodies), clientip.go (trusted proxies), cors.go (the integration key's
// cross-origin calls). errors.go is the one table from domain errors to
// statuses; every error leaves in the one internal/httperr format.
package http
