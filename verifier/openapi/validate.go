package openapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Validator checks responses against the document and remembers which
// operations it has seen, so a test suite can insist every documented
// operation was exercised.
type Validator struct {
	router routers.Router
	doc    *openapi3.T
	mu     sync.Mutex
	seen   map[string]bool // "GET /me"
}

// The end user's pages, their script and stylesheet and the QR code of
// the link are validated as strings.
func init() {
	for _, ct := range []string{"text/html", "text/javascript", "text/css", "image/svg+xml"} {
		openapi3filter.RegisterBodyDecoder(ct, func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
			b, err := io.ReadAll(body)
			return string(b), err
		})
	}
}

// NewValidator loads the document and routes requests by path only.
func NewValidator() (*Validator, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	doc.Servers = nil
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi router: %w", err)
	}
	return &Validator{router: router, doc: doc, seen: map[string]bool{}}, nil
}

// Response validates one response (status, headers, body) to req. An
// undocumented status is an error.
func (v *Validator) Response(req *http.Request, status int, header http.Header, body []byte) error {
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not in the document: %w", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s → %d: %w\nbody: %s", req.Method, req.URL.Path, status, err, bytes.TrimSpace(body))
	}
	v.mu.Lock()
	v.seen[req.Method+" "+route.Path] = true
	v.mu.Unlock()
	return nil
}

// Request validates a request (path, query, headers, body) against its
// operation. Tests call it for requests the server accepted, so a client
// built from the document sends what the server takes.
func (v *Validator) Request(req *http.Request, body []byte) error {
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not in the document: %w", req.Method, req.URL.Path, err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return fmt.Errorf("request %s %s: %w", req.Method, req.URL.Path, err)
	}
	return nil
}

// Unexercised lists documented operations no validated response came from.
func (v *Validator) Unexercised() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for path, item := range v.doc.Paths.Map() {
		for method := range item.Operations() {
			if op := method + " " + path; !v.seen[op] {
				out = append(out, op)
			}
		}
	}
	sort.Strings(out)
	return out
}
