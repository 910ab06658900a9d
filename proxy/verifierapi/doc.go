// Package verifierapi is the proxy's client of the verifier's
// create-verification endpoint (POST /verification with the publishable
// integration key in X-API-Key and the shopper's storefront origin in
// Origin, which the key's allowlist must hold), and of its account API for
// the settings page's link (sign-in with the merchant's e-mail and password,
// the integration key, the webhook secret: account.go).
package verifierapi
