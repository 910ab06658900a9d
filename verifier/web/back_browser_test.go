package web_test

import (
	"encoding/json"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// shop is the integration key's allowed site: the Origin the verifications
// below are created from, as a storefront's proxy or script sends it.
const shop = "https://shop.example.com"

// createFromSite makes a test verification with the account's test
// integration key (allowlist: shop.example.com) from Origin shop.
func (e *env) createFromSite() created {
	e.t.Helper()
	var key struct {
		Key string `json:"key"`
	}
	e.call("POST", "/integration-key", `{"allowed_domains":["shop.example.com"]}`, 201, &key)
	req, _ := http.NewRequest("POST", e.URL+"/verification", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", key.Key)
	req.Header.Set("Origin", shop)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var c created
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(raw, &c) != nil {
		e.t.Fatalf("create with the integration key: %d %s", resp.StatusCode, raw)
	}
	return c
}

// opener is a site's page sent with Referrer-Policy: no-referrer whose one
// link (?to=) opens in the same tab, as the widget does on a phone.
var opener = template.Must(template.New("opener").Parse(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>A store</title></head>
<body><main><h1>A store</h1><p><a id="go" href="{{.}}">Verify your ID</a></p></main></body></html>`))

func serveOpener(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Cache-Control", "no-store")
		_ = opener.Execute(w, r.URL.Query().Get("to"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// openFrom opens link from the opener page in the same tab, the way a
// phone's widget does, and finishes the test page with "Verified".
func (tb *tab) openFrom(site, link string) {
	tb.T.Helper()
	tb.Open(site + "/?to=" + url.QueryEscape(link))
	tb.Wait(`!!document.getElementById("go")`)
	eval[bool](tb, `(document.getElementById("go").click(), true)`)
	tb.screen("test")
	if ref := eval[string](tb, `document.referrer`); ref != "" {
		tb.T.Fatalf("the page got a referrer %q through Referrer-Policy: no-referrer", ref)
	}
	tb.click("Finish with this outcome")
}

// "Back to <site>" without a referrer: the site names itself in the link's
// fragment (#from=, as the widget does), and the page believes it only for
// the origin the verification was created from. Here the opener page
// names shop.example.com, the key's site, so Done offers "Back to
// shop.example.com", which goes back in the tab to the page that opened
// the link. A fragment naming any other origin (here the opener's real
// one, which the verification was not created from) is ignored, and so
// is a link opened directly: both keep "close this page".
func TestBackToSiteWithoutReferrerInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	site := serveOpener(t)
	phone := newTab(t, true)

	c := e.createFromSite()
	phone.openFrom(site, c.URL+"#from="+url.QueryEscape(shop))
	text := phone.screen("done")
	contains(t, text, "Test mode", "Done. Go back to finish there.", "Back to shop.example.com")
	phone.Shoot("27-back-to-site-no-referrer")
	phone.clickAway("Back to shop.example.com")
	phone.Wait(`location.href.startsWith(` + jsString(site) + `) && !!document.getElementById("go")`)
	phone.ShootHere("28-back-at-the-site-390x844")

	forged := e.createFromSite()
	phone.openFrom(site, forged.URL+"#from="+url.QueryEscape(site))
	text = phone.screen("done")
	contains(t, text, "Done, you can close this page.")
	if strings.Contains(text, "Back to") {
		t.Errorf("a fragment naming %s, not the verification's site, led back:\n%s", site, text)
	}
	phone.Shoot("29-forged-fragment-ignored")

	direct := e.createFromSite()
	phone.Open(direct.URL)
	phone.screen("test")
	phone.click("Finish with this outcome")
	text = phone.screen("done")
	contains(t, text, "Done, you can close this page.")
	if strings.Contains(text, "Back to") {
		t.Errorf("a link opened directly offers a way back:\n%s", text)
	}
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
