package bigcommercetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/idgate/idgate/internal/contracttest"
)

// Defaults for the zero values of Options.
const (
	DefaultStoreHash = "idgatetest1"
	// The platform's standard plan quota: 150 requests per 30 s window.
	DefaultQuota  = 150
	DefaultWindow = 30 * time.Second
	maxBodyBytes  = 1 << 20
	// maxRecorded bounds the request log, so a long-running demo does not
	// grow without end; tests stay far below it.
	maxRecorded = 10000
)

// Options configures a Double.
type Options struct {
	// ContractsDir holds the BigCommerce documents (`make testdata` puts
	// them under var/contracts/bigcommerce); Start always sets it. Empty
	// serves the same operations without validating them: the demo's mode,
	// since contract checks are a test concern.
	ContractsDir string
	StoreHash    string // default DefaultStoreHash
	Token        string // the only X-Auth-Token accepted; required
	// OnViolation receives every contract violation. Required.
	OnViolation func(error)
	// Now is the double's clock, for timestamps and the rate-limit window.
	// Share a Clock with the client to test waiting without sleeping.
	Now func() time.Time
	// Quota requests per Window, as the platform's rate-limit headers
	// report. Defaults DefaultQuota and DefaultWindow.
	Quota  int
	Window time.Duration
}

// Fault is an answer the double gives instead of serving a request, after
// validating it: a 429 (with the rate-limit headers) or a 5xx.
type Fault struct {
	Status int
	// ResetAfter is X-Rate-Limit-Time-Reset-Ms on a 429; 0 omits the
	// header. It is not applied to the double's own window.
	ResetAfter time.Duration
}

// Request is one request as the double received it.
type Request struct {
	Method string
	Path   string // as sent, /stores/{hash}/v3/...
	Query  string
	Header http.Header
	Body   []byte
	At     time.Time
}

// Double is the fake Management API of one store. It is an http.Handler;
// URL is where it is served (set by Start, or by the caller).
type Double struct {
	URL string

	opts      Options
	contracts *contracts // nil: route by the operations table, validate nothing

	mu          sync.Mutex
	faults      []Fault
	requests    []Request
	windowStart time.Time
	used        int
	state
}

// New builds a Double from opts.
func New(opts Options) (*Double, error) {
	if opts.Token == "" || opts.OnViolation == nil {
		return nil, errors.New("bigcommercetest: Token and OnViolation are required")
	}
	if opts.StoreHash == "" {
		opts.StoreHash = DefaultStoreHash
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Quota <= 0 {
		opts.Quota = DefaultQuota
	}
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	d := &Double{opts: opts, state: newState()}
	if opts.ContractsDir != "" {
		c, err := loadContracts(opts.ContractsDir)
		if err != nil {
			return nil, fmt.Errorf("bigcommercetest: %w", err)
		}
		d.contracts = c
	}
	return d, nil
}

// StartServer serves d on a local httptest server and sets d.URL.
func (d *Double) StartServer() *httptest.Server {
	srv := httptest.NewServer(d)
	d.URL = srv.URL
	return srv
}

// BaseURL is what a client's Config.BaseURL should be.
func (d *Double) BaseURL() string { return d.URL + "/stores/{store_hash}/" }

// StoreHash is the store the double serves.
func (d *Double) StoreHash() string { return d.opts.StoreHash }

// FailNext queues faults; each of the next len(faults) valid requests gets
// one instead of being served.
func (d *Double) FailNext(faults ...Fault) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = append(d.faults, faults...)
}

// Requests returns a copy of the requests received so far (the most recent
// ones, past maxRecorded).
func (d *Double) Requests() []Request {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Request(nil), d.requests...)
}

// ServeHTTP validates, then serves or fails the request, then validates the
// response before sending it.
func (d *Double) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil || len(body) > maxBodyBytes {
		d.violation("%s %s: unreadable or oversized body", r.Method, r.URL.Path)
		writeError(w, http.StatusBadRequest, "body unreadable or too large")
		return
	}
	d.mu.Lock()
	if len(d.requests) >= maxRecorded {
		d.requests = append(d.requests[:0:0], d.requests[len(d.requests)-maxRecorded/2:]...)
	}
	d.requests = append(d.requests, Request{
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body, At: d.opts.Now(),
	})
	d.mu.Unlock()

	rec := httptest.NewRecorder()
	if d.contracts == nil {
		op, params, ok := d.routeUnchecked(w, r)
		if !ok {
			return
		}
		d.serve(rec, op, params, r.URL.Query(), body)
	} else {
		in, ok := d.route(w, r, body)
		if !ok {
			return
		}
		platform := d.serve(rec, in.Route.Operation.OperationID, in.PathParams, in.Request.URL.Query(), body)
		d.validateResponse(in, rec, platform)
	}
	contracttest.Send(w, rec)
}

// route finds the operation and validates the request against it. It
// answers the request itself (and returns false) when that fails.
func (d *Double) route(w http.ResponseWriter, r *http.Request, body []byte) (*openapi3filter.RequestValidationInput, bool) {
	prefix := "/stores/" + d.opts.StoreHash + "/"
	rest, found := strings.CutPrefix(r.URL.Path, prefix)
	version, sub, _ := strings.Cut(rest, "/")
	if !found || d.contracts.routers[version] == nil {
		d.violation("%s %s: not a path of store %s", r.Method, r.URL.Path, d.opts.StoreHash)
		writeError(w, http.StatusNotFound, "no such store or API version")
		return nil, false
	}
	// The documents' paths start after /stores/{store_hash}/{version}.
	routed := r.Clone(r.Context())
	routed.URL.Path = "/" + sub
	routed.URL.RawPath = ""
	in, err := contracttest.Request(d.contracts.routers[version], routed, body, d.authenticate)
	switch {
	case errors.Is(err, contracttest.ErrNoOperation):
		d.violation("%s %s: no operation in the %s documents", r.Method, r.URL.Path, version)
		writeError(w, http.StatusNotFound, "The requested resource was not found.")
		return nil, false
	case errors.Is(err, contracttest.ErrUnauthorized):
		// A wrong token is the caller's problem, not a contract breach.
		writeError(w, http.StatusUnauthorized, "Unauthorized")
		return nil, false
	case err != nil:
		d.violation("request %s %s breaks the contract: %v", r.Method, r.URL.Path, err)
		writeError(w, http.StatusUnprocessableEntity, "request does not match the contract")
		return nil, false
	}
	return in, true
}

// routeUnchecked finds the operation by the operations table and checks
// the token, as route does, but validates nothing else.
func (d *Double) routeUnchecked(w http.ResponseWriter, r *http.Request) (string, map[string]string, bool) {
	rest, found := strings.CutPrefix(r.URL.Path, "/stores/"+d.opts.StoreHash+"/")
	version, sub, _ := strings.Cut(rest, "/")
	op, params, ok := matchOperation(version, r.Method, "/"+sub)
	if !found || !ok {
		d.violation("%s %s: not an operation the double implements", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "The requested resource was not found.")
		return "", nil, false
	}
	if r.Header.Get("X-Auth-Token") != d.opts.Token {
		writeError(w, http.StatusUnauthorized, "Unauthorized")
		return "", nil, false
	}
	return op.id, params, true
}

func (d *Double) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "apiKey" || s.In != "header" {
		return fmt.Errorf("unsupported security scheme %q", in.SecuritySchemeName)
	}
	if in.RequestValidationInput.Request.Header.Get(s.Name) != d.opts.Token {
		return errors.New("wrong or missing " + s.Name)
	}
	return nil
}

// serve answers a valid request: a queued fault, a 429 when the window's
// quota is spent, or the operation's handler. platform is true for the
// gateway's own answers (faults, 429), which no operation documents.
func (d *Double) serve(w *httptest.ResponseRecorder, opID string, params map[string]string, query url.Values, body []byte) (platform bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.opts.Now()
	if now.Sub(d.windowStart) >= d.opts.Window || now.Before(d.windowStart) {
		d.windowStart, d.used = now, 0
	}
	reset := d.windowStart.Add(d.opts.Window).Sub(now)
	if len(d.faults) > 0 {
		f := d.faults[0]
		d.faults = d.faults[1:]
		if f.Status == http.StatusTooManyRequests {
			w.Header().Set("X-Rate-Limit-Requests-Left", "0")
			if f.ResetAfter > 0 {
				w.Header().Set("X-Rate-Limit-Time-Reset-Ms", strconv.FormatInt(f.ResetAfter.Milliseconds(), 10))
			}
		}
		writeError(w, f.Status, http.StatusText(f.Status))
		return true
	}
	h := w.Header()
	h.Set("X-Rate-Limit-Requests-Quota", strconv.Itoa(d.opts.Quota))
	h.Set("X-Rate-Limit-Time-Window-Ms", strconv.FormatInt(d.opts.Window.Milliseconds(), 10))
	h.Set("X-Rate-Limit-Time-Reset-Ms", strconv.FormatInt(reset.Milliseconds(), 10))
	if d.used >= d.opts.Quota {
		h.Set("X-Rate-Limit-Requests-Left", "0")
		writeError(w, http.StatusTooManyRequests, "Too many requests")
		return true
	}
	d.used++
	h.Set("X-Rate-Limit-Requests-Left", strconv.Itoa(d.opts.Quota-d.used))
	handler, ok := handlers[opID]
	if !ok {
		d.violation("operation %s is in the contract but the double does not implement it", opID)
		writeError(w, http.StatusNotImplemented, "not implemented by the test double")
		return true
	}
	handler(&d.state, call{w: w, params: params, query: query, body: body, now: now, storeHash: d.opts.StoreHash})
	return false
}

// validateResponse checks an operation's answer against the document,
// status included: an undocumented status is a violation. The gateway's
// own answers are checked for the rate-limit headers only.
func (d *Double) validateResponse(in *openapi3filter.RequestValidationInput, rec *httptest.ResponseRecorder, platform bool) {
	if platform {
		if rec.Code == http.StatusTooManyRequests && rec.Header().Get("X-Rate-Limit-Requests-Left") != "0" {
			d.violation("429 without X-Rate-Limit-Requests-Left: 0")
		}
		return
	}
	if err := contracttest.Response(in, rec); err != nil {
		d.violation("response %d to %s %s breaks the contract: %v", rec.Code, in.Request.Method, in.Route.Path, err)
	}
}

func (d *Double) violation(format string, args ...any) {
	d.opts.OnViolation(fmt.Errorf("bigcommerce contract: "+format, args...))
}
