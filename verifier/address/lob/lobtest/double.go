// Package lobtest is a test double of Lob's US Verifications API. Every
// request and every answer is validated against Lob's own OpenAPI document
// (lob/lob-openapi, MIT, committed under testdata/lob); a mismatch is
// reported through Options.OnViolation (t.Errorf in tests). Answers are
// the document's own example of a us_verification, with the
// deliverability set per address.
package lobtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/oasdiff/yaml"

	"github.com/idgate/idgate/internal/contracttest"
)

// Document is the file of testdata/lob the double validates against.
const Document = "lob-api-bundled.yml"

// Options configures a Double.
type Options struct {
	Dir         string // testkit.Data(t, "testdata", "lob")
	APIKey      string
	OnViolation func(msg string) // nil panics
}

// Double is the running double.
type Double struct {
	URL string

	opts    Options
	router  routers.Router
	example map[string]any
	srv     *httptest.Server

	mu       sync.Mutex
	answers  map[string]string // upper-cased primary_line → deliverability
	failNext int               // a status to answer the next request with
	requests []map[string]any
}

// New loads the document and starts the double; Close stops it.
func New(opts Options) (*Double, error) {
	doc, err := load(filepath.Join(opts.Dir, Document))
	if err != nil {
		return nil, fmt.Errorf("lobtest: %w", err)
	}
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("lobtest: validate: %w", err)
	}
	// Route on the double's host: the document's server is api.lob.com/v1.
	doc.Servers = openapi3.Servers{{URL: "/v1"}}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("lobtest: route: %w", err)
	}
	resp := doc.Components.Responses["us_verifications"]
	if resp == nil || resp.Value == nil || resp.Value.Content["application/json"] == nil {
		return nil, errors.New("lobtest: the document has no us_verifications response")
	}
	ex := resp.Value.Content["application/json"].Examples["basic"]
	if ex == nil || ex.Value == nil {
		return nil, errors.New("lobtest: the document has no basic us_verification example")
	}
	raw, err := json.Marshal(ex.Value.Value)
	if err != nil {
		return nil, err
	}
	var example map[string]any
	if err := json.Unmarshal(raw, &example); err != nil {
		return nil, err
	}
	d := &Double{opts: opts, router: r, example: example, answers: map[string]string{}}
	d.srv = httptest.NewServer(http.HandlerFunc(d.handle))
	d.URL = d.srv.URL + "/v1"
	return d, nil
}

// load reads Lob's bundled document and keeps the one operation the
// provider calls, with the components it reaches. Elsewhere the bundle
// writes a response's content as a $ref to its own components.mediaTypes
// (not OpenAPI 3.0) and uses patterns with look-ahead (not in Go's
// regexp), both of which kin-openapi refuses; none of that is reached from
// /us_verifications, so it is dropped in memory (the file stays as Lob
// publishes it). What remains is validated.
func load(path string) (*openapi3.T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if _, err := yaml.Unmarshal(data, &doc, yaml.DecodeOpts{}); err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	paths, _ := doc["paths"].(map[string]any)
	op, ok := paths["/us_verifications"]
	if !ok {
		return nil, errors.New("no /us_verifications in the document")
	}
	doc["paths"] = map[string]any{"/us_verifications": op}
	comps, _ := doc["components"].(map[string]any)
	keep := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok && strings.HasPrefix(ref, "#/components/") && !keep[ref] {
				keep[ref] = true
				parts := strings.SplitN(strings.TrimPrefix(ref, "#/components/"), "/", 2)
				if len(parts) == 2 {
					if kind, ok := comps[parts[0]].(map[string]any); ok {
						walk(kind[parts[1]])
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc["paths"])
	walk(doc["security"])
	for kind, entries := range comps {
		m, ok := entries.(map[string]any)
		if !ok || kind == "securitySchemes" {
			continue
		}
		for name := range m {
			if !keep["#/components/"+kind+"/"+name] {
				delete(m, name)
			}
		}
	}
	delete(comps, "mediaTypes")
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	return loader.LoadFromData(raw)
}

// Close stops the double.
func (d *Double) Close() { d.srv.Close() }

// Set makes addresses whose primary line is line answer deliverability
// (deliverable, deliverable_missing_unit, undeliverable, ...); others are
// deliverable.
func (d *Double) Set(line, deliverability string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers[strings.ToUpper(line)] = deliverability
}

// FailNext answers the next request with status (and Lob's error body);
// the document allows 401, 403, 404, 413, 422, 429 and 500.
func (d *Double) FailNext(status int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failNext = status
}

// Requests are the bodies received, oldest first.
func (d *Double) Requests() []map[string]any {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]map[string]any(nil), d.requests...)
}

func (d *Double) violation(format string, args ...any) {
	msg := "lobtest: " + fmt.Sprintf(format, args...)
	if d.opts.OnViolation == nil {
		panic(msg)
	}
	d.opts.OnViolation(msg)
}

func (d *Double) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	in, err := contracttest.Request([]routers.Router{d.router}, r, body, d.authenticate)
	if errors.Is(err, contracttest.ErrNoOperation) {
		d.violation("%s %s: no operation in Lob's document", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	rec := httptest.NewRecorder()
	switch {
	case errors.Is(err, contracttest.ErrUnauthorized):
		lobError(rec, http.StatusUnauthorized, "unauthorized", "Your API key is not valid.")
	case err != nil:
		d.violation("request %s %s breaks the contract: %v", r.Method, r.URL.Path, err)
		lobError(rec, http.StatusUnprocessableEntity, "invalid", "request does not match the contract")
	default:
		d.serve(rec, in.Route.Path, body)
	}
	if err := contracttest.Response(in, rec); err != nil {
		d.violation("answer to %s %s breaks the contract: %v", r.Method, r.URL.Path, err)
	}
	contracttest.Send(w, rec)
}

func (d *Double) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	user, pass, ok := in.RequestValidationInput.Request.BasicAuth()
	if !ok || user != d.opts.APIKey || pass != "" {
		return errors.New("wrong or missing API key")
	}
	return nil
}

func (d *Double) serve(w *httptest.ResponseRecorder, path string, body []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if path != "/us_verifications" {
		d.violation("%s: an operation the provider should not call", path)
		lobError(w, http.StatusNotFound, "not_found", "not implemented by the double")
		return
	}
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	d.requests = append(d.requests, req)
	if d.failNext != 0 {
		status := d.failNext
		d.failNext = 0
		lobError(w, status, map[int]string{429: "rate_limit_exceeded", 500: "internal_server_error", 422: "invalid"}[status], "failed by the double")
		return
	}
	line, _ := req["primary_line"].(string)
	answer := d.answers[strings.ToUpper(line)]
	if answer == "" {
		answer = "deliverable"
	}
	out := map[string]any{}
	raw, _ := json.Marshal(d.example)
	_ = json.Unmarshal(raw, &out)
	out["primary_line"] = strings.ToUpper(line)
	out["deliverability"] = answer
	if answer == "undeliverable" {
		out["valid_address"] = false
		if da, ok := out["deliverability_analysis"].(map[string]any); ok {
			da["dpv_confirmation"], da["dpv_active"], da["dpv_footnotes"] = "N", "N", []any{"AA", "M3"}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(out)
}

// lobError is Lob's error body.
func lobError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": message, "status_code": status, "code": code}})
}
