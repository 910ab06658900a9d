// Package problem holds the one description of a broken input rule, shared
// by the domain (verifier's validation errors), leaf packages with rules of
// their own (webhook's header rule) and the HTTP error body (httperr), so no
// layer converts between look-alike types. It imports nothing.
package problem

// Detail is one broken rule on one input field.
type Detail struct {
	// Field is the JSON name, with an index or key for items:
	// allowed_domains[2], webhook_headers.X-Token.
	Field string `json:"field"`
	// Code is machine-readable: invalid_email, too_short, ...
	Code    string `json:"code"`
	Message string `json:"message"`
}
