package http_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/secheaders"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/proxytest"
)

// Every route of the proxy (the widget's script, the widget's JSON, the
// webhook receivers), an unknown path and a CORS preflight answer with
// the one set of security headers (the proxy serves no HTML of its own;
// the demo storefront is a BigCommerce stand-in).
func TestSecurityHeadersOnEveryProxyRoute(t *testing.T) {
	env := proxytest.Start(t, proxytest.Options{})
	app, err := proxyhttp.New(env.Service, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	walked := 0
	probe := func(method, path string, headers ...string) {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := app.Test(req, 10_000)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		walked++
		for k, v := range secheaders.Headers {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("%s %s (%d): %s = %q, want %q", method, path, resp.StatusCode, k, got, v)
			}
		}
	}
	seen := map[string]bool{}
	for _, rt := range app.GetRoutes(true) {
		if rt.Method == "HEAD" || rt.Method == "CONNECT" || rt.Method == "TRACE" || seen[rt.Method+rt.Path] {
			continue
		}
		seen[rt.Method+rt.Path] = true
		for _, hash := range []string{storeHash, "nostore1"} {
			probe(rt.Method, strings.ReplaceAll(rt.Path, ":hash", hash)+"?cart_id="+cartA, "Origin", origin)
		}
	}
	probe("GET", "/nowhere")
	probe("OPTIONS", "/proxy/v1/stores/"+storeHash+"/status", "Origin", origin, "Access-Control-Request-Method", "GET")
	if len(seen) < 5 {
		t.Fatalf("only %d routes walked", len(seen))
	}
	t.Logf("%d routes, %d responses, all with the security headers", len(seen), walked)
}
