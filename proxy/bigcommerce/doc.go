// Package bigcommerce is the client for the parts of the BigCommerce
// Management API the storefront plugin uses: cart, customer and order
// metafields, the footer script, order status and webhook registration. It
// also verifies the storefront's Current Customer JWT.
//
// The store access token lives only in the X-Auth-Token header: it is a
// Secret, never logged and never part of an error.
//
// Where to look: client.go (Client, New), metafields.go and outcome.go
// (Outcome, the stored verdict on a cart, customer or order; not
// verifier.Outcome), orders.go, scripts.go (the footer script), webhooks.go
// (registering the store's webhooks), customer.go (the Current Customer
// JWT), errors.go (APIError), secret.go (Secret), storehash.go.
package bigcommerce
