package http

import (
	"bytes"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/secheaders"
	"github.com/idgate/idgate/verifier/web"
)

// Every route of the server, with every kind of link behind /v/{token}
// (live, canceled, completed-looking unknown), answers with the one set of
// security headers; every HTML page forbids framing in its CSP. Errors
// raised before the middleware (an oversized body) and unknown paths
// carry them too. Routes join the walk as they are registered.
func TestSecurityHeadersOnEveryRoute(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	live := h.create(h.bearer, `{}`)
	canceled := h.create(h.bearer, `{}`)
	h.do("POST", "/verification/cancel?id="+canceled.ID, "", "Authorization", h.bearer)
	assets, err := web.Assets()
	if err != nil {
		t.Fatal(err)
	}
	values := map[string][]string{
		"token": {token(t, live), token(t, canceled), strings.Repeat("A", 43)},
		"id":    {live.ID, "00000000-0000-4000-8000-000000000000"},
		"name":  {"nope.js"},
	}
	for path := range assets {
		values["name"] = append(values["name"], strings.TrimPrefix(path, "/assets/"))
	}
	html, walked := 0, 0
	check := func(method, path string, r response) {
		t.Helper()
		walked++
		for k, v := range secheaders.Headers {
			got := r.header.Get(k)
			if k == "Content-Security-Policy" {
				if !strings.Contains(got, "frame-ancestors 'none'") {
					t.Errorf("%s %s (%d): CSP %q lets anyone frame it", method, path, r.status, got)
				}
				continue
			}
			if got != v {
				t.Errorf("%s %s (%d): %s = %q, want %q", method, path, r.status, k, got, v)
			}
		}
		if strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			html++
			if bytes.Contains(r.body, []byte("<script")) && !strings.Contains(r.header.Get("Content-Security-Policy"), "script-src 'self'") {
				t.Errorf("%s %s: a page with script under the default CSP", method, path)
			}
		}
	}
	seen := map[string]bool{}
	for _, rt := range h.srv.app.GetRoutes(true) {
		if rt.Method == "HEAD" || rt.Method == "CONNECT" || rt.Method == "TRACE" || seen[rt.Method+rt.Path] {
			continue
		}
		seen[rt.Method+rt.Path] = true
		for _, p := range expand(rt.Path, values) {
			check(rt.Method, p, h.do(rt.Method, p, ""))
		}
	}
	check("GET", "/nowhere", h.do("GET", "/nowhere", ""))
	big := h.send("POST", "/verification", "application/json", bytes.Repeat([]byte(" "), 4<<20), "Authorization", h.bearer)
	check("POST", "/verification (4 MB)", big)
	if big.status != 413 {
		t.Errorf("4 MB body: %d", big.status)
	}
	if html < 3 {
		t.Fatalf("walked %d responses, only %d HTML: the link pages were not reached", walked, html)
	}
	t.Logf("%d routes, %d responses (%d HTML), all with the security headers", len(seen), walked, html)
}

// expand fills a route's :params with every value given for them.
func expand(path string, values map[string][]string) []string {
	out := []string{""}
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		opts := []string{seg}
		if name, ok := strings.CutPrefix(seg, ":"); ok {
			name = strings.TrimSuffix(name, "?")
			if opts = values[name]; len(opts) == 0 {
				opts = []string{"x"}
			}
		}
		var next []string
		for _, o := range out {
			for _, v := range opts {
				next = append(next, o+"/"+v)
			}
		}
		out = next
	}
	return out
}
