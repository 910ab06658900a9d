// Package proxy is the storefront plugin's server side: per-store
// configuration, the verification status of a cart or customer, starting a
// verification for a shopper, and applying the verifier's webhook to the
// store's metafields. It holds the store's access token; the browser never
// sees it. Adapters: proxy/bigcommerce (the platform), proxy/storefile (the
// configuration file), proxy/verifierapi (the verifier), proxy/http (fiber).
//
// Where to look: service.go (Service, the logic independent of HTTP, and its
// Platform and Verifier ports), store.go (Store, one store's configuration,
// and the Stores port), start.go (Start), status.go (Status, cached),
// webhook.go and signature.go (ApplyWebhook: the verifier's signed result
// onto cart and customer metafields), order.go (GuardOrder: holding orders
// without a passing verification), ref.go (the sealed shopper reference),
// limits.go (limits on starts), input.go (strict JSON input). Storefront
// rules come from rulesets; proxy/server assembles it all for
// `idgate store serve`, and proxy/proxytest runs it for tests and the demo.
package proxy
