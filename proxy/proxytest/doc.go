// Package proxytest runs the whole proxy for tests and the local demo: one
// BigCommerce double per store, a stand-in for the verifier's create
// endpoint, the service and its fiber server on loopback, and helpers that
// sign webhooks exactly as the verifier does.
//
// Where to look: env.go (Env: Start in tests, New for the demo; Options.Real
// puts a running verifier in place of the stand-in), storefront.go
// (Storefront, a demo storefront with a cart page and the footer script),
// verifier.go (the stand-in verifier), stores.go (Stores, an in-memory
// proxy.Stores).
package proxytest
