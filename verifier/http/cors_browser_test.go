package http

import (
	"fmt"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit/chromium"
)

// TestCreateVerificationFromABrowserPage runs docs/api.md's fetch as a
// merchant's page would: a page on one origin creates a verification on
// the verifier, another origin, with the integration key. Chromium sends
// the preflight and then hands the page the answer only if the CORS
// headers admit it. A page on a site the key does not allow gets nothing
// readable (fetch rejects), as a stolen key on another site should.
func TestCreateVerificationFromABrowserPage(t *testing.T) {
	h := newHarness(t, func(d *Deps) { d.Config.Dev = true }) // http://127.0.0.1 origins, as make run
	h.account("owner@example.com", "correct horse battery staple")
	bearer := h.signIn("owner@example.com", "correct horse battery staple")

	page := func() *httptest.Server {
		s := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, _ *nethttp.Request) {
			fmt.Fprint(w, "<!doctype html><title>shop</title>")
		}))
		t.Cleanup(s.Close)
		return s
	}
	shop, other := page(), page()
	var k integrationKeyResponse
	h.do("POST", "/integration-key", `{"allowed_domains":["`+strings.TrimPrefix(shop.URL, "http://")+`"]}`, "Authorization", bearer).json(t, &k)

	tab := chromium.NewTab(t, "cors", false)
	create := fmt.Sprintf(`fetch(%q + "/create-verification", {
		method: "POST",
		headers: {"Content-Type": "application/json", "X-API-Key": %q},
		body: JSON.stringify({external_id: "cart-5f2c"}),
	}).then(async (r) => r.status + " " + (await r.json()).url, (e) => "rejected: " + e.name)`, h.url(), k.Key)

	tab.Open(shop.URL)
	if got := chromium.Eval[string](tab, create); !strings.HasPrefix(got, "201 "+testPublicURL+"/v/") {
		t.Fatalf("fetch from the allowed site: %q", got)
	}
	tab.Open(other.URL)
	if got := chromium.Eval[string](tab, create); got != "rejected: TypeError" {
		t.Fatalf("fetch from a site the key does not allow: %q", got)
	}
}
