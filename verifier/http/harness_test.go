package http

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	nethttp "net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/openapi"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// validator checks every response to a documented path against the OpenAPI
// document; TestMain then insists every documented operation was exercised.
var validator *openapi.Validator

func TestMain(m *testing.M) {
	var err error
	if validator, err = openapi.NewValidator(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		if left := validator.Unexercised(); len(left) > 0 {
			fmt.Fprintf(os.Stderr, "documented operations no test exercised: %v\n", left)
			code = 1
		}
	}
	os.Exit(code)
}

var t0 = time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)

// testPublicURL is the base of end users' links in tests.
const testPublicURL = "https://verify.example.test"

// testKey signs the API's tokens (parts.Tokens).
var testKey = parts.TokenKey

type harness struct {
	t     *testing.T
	base  string // http://127.0.0.1:port once listening
	http  *nethttp.Client
	srv   *Server
	store verifier.Store
	auth  *verifier.Authenticator
	clock *testkit.Clock
	logs  *testkit.LogBuffer
}

// newHarness serves on a real SQLite store in a temp dir with the
// in-process limiter, both on the injected clock. edit adjusts Deps.
func newHarness(t *testing.T, edit ...func(*Deps)) *harness {
	t.Helper()
	return newHarnessOn(t, openSQLite(t), edit...)
}

// The stores and the backends' loop are verifiertest/parts' (shared with
// verifiertest, which this package's tests cannot import).
func openSQLite(t *testing.T) *sqlstore.DB { return parts.OpenSQLite(t) }

// onBothBackends runs fn as a parallel subtest per backend.
func onBothBackends(t *testing.T, fn func(t *testing.T, open func(t *testing.T) *sqlstore.DB)) {
	parts.OnBothBackends(t, fn)
}

// newHarnessOn serves on store (see newHarness).
func newHarnessOn(t *testing.T, store verifier.Store, edit ...func(*Deps)) *harness {
	t.Helper()
	clock := testkit.ClockAt(t0)
	auth, err := verifier.NewAuthenticator(store, parts.Tokens(), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	logs := &testkit.LogBuffer{}
	d := Deps{
		Store:   store,
		Limiter: memory.New(clock.Now),
		Auth:    auth,
		Logger:  slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:     clock.Now,
		Config: Config{BodyLimit: 4096, ReadTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, AuthLimit: DefaultAuthLimit,
			PublicURL: testPublicURL},
	}
	for _, e := range edit {
		e(&d)
	}
	srv, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, srv: srv, store: store, auth: auth, clock: clock, logs: logs}
}

type response struct {
	status int
	header nethttp.Header
	body   []byte
}

// errorBody decodes the error format, failing the test if it is not one.
func (r response) errorBody(t *testing.T) httperr.BodyError {
	t.Helper()
	var b httperr.Body
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil || b.Error.Code == "" || b.Error.Message == "" {
		t.Fatalf("not the error format (%v): %s", err, r.body)
	}
	return b.Error
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// url starts the server on a loopback listener at first use, so tests can
// add routes before it runs, and stops it when the test ends.
func (h *harness) url() string {
	if h.base != "" {
		return h.base
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.srv.Serve(ln) }()
	// The client lets go of an idle connection well before the server's
	// IdleTimeout (5 s here) closes it: a POST sent on a connection the
	// server is closing at that instant fails with EOF and is not retried
	// (TestPassportFlow's refusals, after drawing four photos for 5 s
	// under CI's load, 2026-12-02).
	transport := &nethttp.Transport{IdleConnTimeout: time.Second}
	h.http = &nethttp.Client{Transport: transport}
	h.t.Cleanup(func() {
		// Idle keep-alive connections would hold Shutdown until IdleTimeout.
		transport.CloseIdleConnections()
		if err := h.srv.Shutdown(context.Background()); err != nil {
			h.t.Errorf("shutdown: %v", err)
		}
		if err := <-done; err != nil {
			h.t.Errorf("serve: %v", err)
		}
	})
	h.base = "http://" + ln.Addr().String()
	return h.base
}

// do sends one request over a real connection. Headers come as name, value pairs.
// Responses to documented paths are validated against the OpenAPI document.
func (h *harness) do(method, path, body string, headers ...string) response {
	h.t.Helper()
	ctype := ""
	if body != "" {
		ctype = "application/json"
	}
	return h.send(method, path, ctype, []byte(body), headers...)
}

// send is do with any body and Content-Type (none when ctype is empty).
func (h *harness) send(method, path, ctype string, body []byte, headers ...string) response {
	h.t.Helper()
	var rd io.Reader
	if len(body) > 0 {
		rd = bytes.NewReader(body)
	}
	req, err := nethttp.NewRequest(method, h.url()+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := h.http.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	if !strings.HasPrefix(path, "/test/") && !strings.HasPrefix(path, "/nowhere") {
		if err := validator.Response(httptest.NewRequest(method, path, nil), resp.StatusCode, resp.Header, raw); err != nil {
			h.t.Errorf("OpenAPI drift: %v", err)
		}
	}
	return response{status: resp.StatusCode, header: resp.Header, body: raw}
}

// account creates an account directly in the store.
func (h *harness) account(email, pw string) verifier.Account {
	h.t.Helper()
	return parts.Account(h.t, h.store, email, pw, h.clock.Now())
}

// signIn returns a bearer token for the account through POST /auth.
func (h *harness) signIn(email, pw string) string {
	h.t.Helper()
	r := h.do("POST", "/auth", fmt.Sprintf(`{"email":%q,"password":%q}`, email, pw))
	if r.status != 200 {
		h.t.Fatalf("sign in: %d %s", r.status, r.body)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	r.json(h.t, &out)
	return "Bearer " + out.AccessToken
}

// expectError checks status and code of an error response.
func expectError(t *testing.T, r response, status int, code httperr.Code) httperr.BodyError {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	e := r.errorBody(t)
	if e.Code != code {
		t.Fatalf("code %s, want %s", e.Code, code)
	}
	return e
}
