package http

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/idgate/idgate/internal/httperr"
)

var uuidShape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestRequestIDEchoedOrGenerated(t *testing.T) {
	h := newHarness(t)
	if r := h.do("GET", "/healthz", "", "X-Request-ID", "edge-7f3a:42"); r.header.Get("X-Request-ID") != "edge-7f3a:42" {
		t.Fatalf("sane ID not echoed: %v", r.header)
	}
	if !strings.Contains(h.logs.String(), `"request_id":"edge-7f3a:42"`) {
		t.Fatalf("ID not in the access log: %s", h.logs.String())
	}
	for _, insane := range []string{"", "has space", "quote\"d", strings.Repeat("a", 129), "line\tbreak"} {
		r := h.do("GET", "/healthz", "", "X-Request-ID", insane)
		if got := r.header.Get("X-Request-ID"); !uuidShape.MatchString(got) {
			t.Errorf("%q: got %q, want a fresh UUID", insane, got)
		}
	}
	// Errors carry it too, including those raised before any handler.
	if r := h.do("POST", "/auth", strings.Repeat("x", 5000), "X-Request-ID", "big-1"); r.header.Get("X-Request-ID") != "big-1" {
		t.Fatalf("413 without ID: %v", r.header)
	}
}

func TestErrorBodies(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	bearer := h.signIn("owner@example.com", "correct horse battery staple")
	cases := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		code                     httperr.Code
		field                    string
	}{
		{"bad JSON", "POST", "/auth", `{"email":`, nil, 400, httperr.MalformedJSON, ""},
		{"not JSON", "POST", "/auth", `email=a&password=b`, nil, 400, httperr.MalformedJSON, ""},
		{"trailing data", "POST", "/auth", `{"email":"a@example.com","password":"x"} {}`, nil, 400, httperr.MalformedJSON, ""},
		{"empty JSON body", "POST", "/auth", ` `, nil, 400, httperr.MalformedJSON, ""},
		{"wrong type", "POST", "/auth", `{"email":42,"password":"x"}`, nil, 422, httperr.ValidationFailed, "email"},
		{"array body", "POST", "/auth", `[1,2]`, nil, 422, httperr.ValidationFailed, "body"},
		{"unknown field", "POST", "/auth", `{"email":"a@example.com","password":"x","admin":true}`, nil, 422, httperr.ValidationFailed, "admin"},
		{"wrong type in patch", "PATCH", "/integration-key", `{"rate_limit_per_hour":"many"}`, []string{"Authorization", bearer}, 422, httperr.ValidationFailed, "rate_limit_per_hour"},
		{"oversize", "POST", "/auth", `{"email":"` + strings.Repeat("a", 5000) + `"}`, nil, 413, httperr.PayloadTooLarge, ""},
		{"text/plain", "POST", "/auth", `{"email":"a@example.com","password":"x"}`, []string{"Content-Type", "text/plain"}, 415, httperr.UnsupportedMediaType, ""},
		{"form", "POST", "/integration-key", `allowed_domains=x`, []string{"Content-Type", "application/x-www-form-urlencoded", "Authorization", bearer}, 415, httperr.UnsupportedMediaType, ""},
		{"latin1", "POST", "/auth", `{"email":"a@example.com","password":"x"}`, []string{"Content-Type", "application/json; charset=iso-8859-1"}, 415, httperr.UnsupportedMediaType, ""},
		{"no such route", "GET", "/nowhere", "", nil, 404, httperr.NotFound, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := expectError(t, h.do(c.method, c.path, c.body, c.headers...), c.status, c.code)
			if c.field != "" && (len(e.Details) != 1 || e.Details[0].Field != c.field) {
				t.Fatalf("details %+v, want field %s", e.Details, c.field)
			}
			if c.field == "" && e.Details != nil {
				t.Fatalf("details on a non-validation error: %+v", e.Details)
			}
		})
	}
	// charset=utf-8 is fine.
	if r := h.do("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery staple"}`, "Content-Type", "application/json; charset=UTF-8"); r.status != 200 {
		t.Fatalf("utf-8 charset: %d %s", r.status, r.body)
	}
}

func TestPanicIsAn500WithoutInternals(t *testing.T) {
	h := newHarness(t)
	h.srv.app.Get("/test/panic", func(*fiber.Ctx) error { panic("secret-db-password in a panic") })
	h.srv.app.Get("/test/fail", func(*fiber.Ctx) error { return errors.New("secret-dsn in an error") })
	for _, path := range []string{"/test/panic", "/test/fail"} {
		r := h.do("GET", path, "", "X-Request-ID", "boom-1")
		expectError(t, r, 500, httperr.Internal)
		if strings.Contains(string(r.body), "secret") {
			t.Fatalf("leaked: %s", r.body)
		}
	}
	logs := h.logs.String()
	if !strings.Contains(logs, "secret-db-password") || !strings.Contains(logs, "secret-dsn") || !strings.Contains(logs, `"request_id":"boom-1"`) {
		t.Fatalf("cause or ID not logged: %s", logs)
	}
	// The handler's lines (Logger, made on first use) carry the ID too,
	// as does the access line (written by finish without it).
	for _, line := range strings.Split(logs, "\n") {
		if (strings.Contains(line, "secret") || strings.Contains(line, `"msg":"request"`)) && !strings.Contains(line, `"request_id":"boom-1"`) {
			t.Errorf("line without the request's ID: %s", line)
		}
	}
}

func TestHealthReadyMetricsOpenAPI(t *testing.T) {
	down := errors.New("redis: connection refused")
	var redisDown atomic.Bool
	h := newHarness(t, func(d *Deps) {
		d.Ready = []ReadyCheck{{Name: "redis", Check: func(context.Context) error {
			if redisDown.Load() {
				return down
			}
			return nil
		}}}
	})
	if r := h.do("GET", "/healthz", ""); r.status != 200 || string(r.body) != `{"status":"ok"}` {
		t.Fatalf("healthz %d %s", r.status, r.body)
	}
	var ready readiness
	r := h.do("GET", "/readyz", "")
	r.json(t, &ready)
	if r.status != 200 || ready.Checks["database"] != "ok" || ready.Checks["redis"] != "ok" {
		t.Fatalf("readyz %d %s", r.status, r.body)
	}
	redisDown.Store(true)
	r = h.do("GET", "/readyz", "")
	r.json(t, &ready)
	if r.status != 503 || ready.Status != "unavailable" || ready.Checks["redis"] != "unavailable" || ready.Checks["database"] != "ok" || strings.Contains(string(r.body), "refused") {
		t.Fatalf("readyz with redis down %d %s", r.status, r.body)
	}
	h.store.Close()
	r = h.do("GET", "/readyz", "")
	r.json(t, &ready)
	if r.status != 503 || ready.Checks["database"] != "unavailable" {
		t.Fatalf("readyz with database closed %d %s", r.status, r.body)
	}

	if r := h.do("GET", "/openapi.json", ""); r.status != 200 || !strings.Contains(string(r.body), `"openapi": "3.0.3"`) {
		t.Fatalf("openapi.json %d", r.status)
	}
	h.do("GET", "/nowhere/else", "")
	// Nothing reads a body no route takes; the next request on the
	// connection is still read as a request.
	h.do("POST", "/nowhere/"+strings.Repeat("z", 20), strings.Repeat("x", 5000))
	h.do("POST", "/auth", strings.Repeat("x", 5000)) // over the route's limit
	r = h.do("GET", "/metrics", "")
	text := string(r.body)
	if strings.Contains(text, "zzzz") {
		t.Error("a raw request path became a metrics label")
	}
	for _, want := range []string{
		`idgate_http_requests_total{method="GET",route="/healthz",status="200"} 1`,
		`idgate_http_requests_total{method="GET",route="/readyz",status="503"} 2`,
		`idgate_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`idgate_http_requests_total{method="POST",route="unmatched",status="404"} 1`,
		`idgate_http_requests_total{method="POST",route="/auth",status="413"} 1`,
		`idgate_http_request_duration_seconds_count{method="GET",route="/readyz",status="200"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s:\n%s", want, text)
		}
	}
}

// Redis is marked Degraded by serve (the limiter falls back to in-process
// counting), so its outage alone must not take the instance out of rotation.
func TestReadyzDegradedDependency(t *testing.T) {
	h := newHarness(t, func(d *Deps) {
		d.Ready = []ReadyCheck{{Name: "redis", Degraded: true, Check: func(context.Context) error {
			return errors.New("redis: connection refused")
		}}}
	})
	var ready readiness
	r := h.do("GET", "/readyz", "")
	r.json(t, &ready)
	if r.status != 200 || ready.Status != "degraded" || ready.Checks["redis"] != "unavailable" || ready.Checks["database"] != "ok" {
		t.Fatalf("readyz with degraded redis %d %s", r.status, r.body)
	}
	h.store.Close()
	r = h.do("GET", "/readyz", "")
	r.json(t, &ready)
	if r.status != 503 || ready.Status != "unavailable" {
		t.Fatalf("readyz with database down too %d %s", r.status, r.body)
	}
}

// The access log leaves out an end user's link token, the link's only
// credential (stored hashed): the path keeps the route's shape.
func TestAccessLogLeavesOutLinkTokens(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	_, tok := h.link(`{}`)
	h.session(tok)
	h.send("GET", "/v/"+tok, "", nil)
	logs := h.logs.String()
	if strings.Contains(logs, tok) {
		t.Fatalf("the link token is in the log:\n%s", logs)
	}
	for _, want := range []string{`"path":"/v/{token}/session"`, `"path":"/v/{token}"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("no %s in the access log:\n%s", want, logs)
		}
	}
	for path, want := range map[string]string{"/v/abc": "/v/{token}", "/v/abc/": "/v/{token}/", "/v/": "/v/{token}",
		"/verification": "/verification", "/vx/abc": "/vx/abc"} {
		if got := logPath(path); got != want {
			t.Errorf("logPath(%q) = %q, want %q", path, got, want)
		}
	}
}

// Paths match exactly as written: a reverse proxy that keeps /metrics
// inside must not be passed by /METRICS or /metrics/ (fiber's defaults
// answered both as /metrics).
func TestRoutesMatchExactly(t *testing.T) {
	h := newHarness(t)
	status := func(path string) int {
		t.Helper()
		resp, err := h.http.Get(h.url() + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("/metrics"); got != 200 {
		t.Fatalf("/metrics: %d", got)
	}
	for _, path := range []string{"/METRICS", "/metrics/", "/Metrics", "/HEALTHZ", "/openapi.json/", "/ME"} {
		if got := status(path); got != 404 {
			t.Errorf("%s: %d, want 404", path, got)
		}
	}
}
