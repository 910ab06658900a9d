// Package contracttest is what the vendor test doubles (BigCommerce, Twilio,
// Lob) share: a request is checked against the vendor's OpenAPI operations
// before the double serves it, and the double's answer is checked against
// the same operation before it is sent, so neither our client nor the
// double can drift from the vendor's contract unseen.
package contracttest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

var (
	// ErrNoOperation: no document has an operation for the request.
	ErrNoOperation = errors.New("no operation in the documents")
	// ErrUnauthorized: the request breaks only security requirements (wrong
	// or missing credentials), the caller's problem rather than a breach.
	ErrUnauthorized = errors.New("credentials refused")
)

// Request finds r's operation in the first router that has one and
// validates the request against it, credentials through auth; a body where
// the operation takes none is refused too. body is r's body, already read:
// the returned input's Request is a clone of r that carries it again, ready
// to read once more. The input is nil only with ErrNoOperation, so an
// answer to a refused request can still be checked by Response.
func Request(rs []routers.Router, r *http.Request, body []byte, auth openapi3filter.AuthenticationFunc) (*openapi3filter.RequestValidationInput, error) {
	for _, router := range rs {
		routed := r.Clone(r.Context())
		routed.Body = io.NopCloser(bytes.NewReader(body))
		route, params, err := router.FindRoute(routed)
		if err != nil {
			continue
		}
		in := &openapi3filter.RequestValidationInput{
			Request: routed, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: auth, MultiError: true,
				RejectWhenRequestBodyNotSpecified: true},
		}
		err = openapi3filter.ValidateRequest(context.Background(), in)
		routed.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil && onlySecurity(err) {
			return in, ErrUnauthorized
		}
		return in, err
	}
	return nil, ErrNoOperation
}

// onlySecurity reports whether every validation error is a security one.
func onlySecurity(err error) bool {
	var multi openapi3.MultiError
	if !errors.As(err, &multi) {
		var sec *openapi3filter.SecurityRequirementsError
		return errors.As(err, &sec)
	}
	for _, e := range multi {
		var sec *openapi3filter.SecurityRequirementsError
		if !errors.As(e, &sec) {
			return false
		}
	}
	return len(multi) > 0
}

// Response checks the recorded answer to in against its operation, status
// included: a status the operation does not document is a violation.
func Response(in *openapi3filter.RequestValidationInput, rec *httptest.ResponseRecorder) error {
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	out.SetBodyBytes(rec.Body.Bytes())
	return openapi3filter.ValidateResponse(context.Background(), out)
}

// Send writes the recorded answer to w.
func Send(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}
