// Package http serves the proxy on gofiber: the widget's endpoints (CORS
// limited to each store's origins), the verifier's webhook receiver,
// BigCommerce's order webhook and the footer script. Every error leaves in the one httperr format.
//
// It is imported as proxyhttp (beside the verifier's verifier/http). New
// registers every route in server.go: /healthz, the widget script
// (widget.go), /openapi.json (openapi.go, checked against real responses),
// the verifier's webhook and BigCommerce's order webhook per store, and the
// widget's status and start endpoints (handlers.go, behind cors.go).
package http
