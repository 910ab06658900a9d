package dashboard_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/verifier"
	verifierhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
	"github.com/idgate/idgate/verifier/verifiertest"
)

// server is the real verifier (SQLite, real HTTP on loopback, the webhook
// endpoints) with one account, for the dashboard's browser tests.
type server struct {
	t     *testing.T
	URL   string
	store *sqlstore.DB
	acct  verifier.Account
	// Email and Password sign the account in.
	Email, Password string
	bearer          string
}

func startServer(t *testing.T) *server {
	t.Helper()
	v := verifiertest.Start(t, verifiertest.Options{Webhooks: true, Config: verifierhttp.Config{AuthLimit: verifierhttp.DefaultAuthLimit}})
	s := &server{t: t, URL: v.URL, store: v.Store, Email: "owner@example.com", Password: "correct horse battery"}
	s.acct, s.bearer = v.Account(s.Email, s.Password)
	return s
}

// call sends a request as the account holder (bearer) and decodes the
// answer into out.
func (s *server) call(method, path, body string, want int, out any) {
	s.t.Helper()
	testkit.CallJSON(s.t, method, s.URL+path, s.bearer, body, want, out)
}

// ptab is one Chromium tab on the dashboard (1280×800, screenshots under
// var/screenshots/dashboard/); it records every request the page sends,
// with its body.
type ptab struct {
	*chromium.Tab
	srv *server
	rec *chromium.Recorder
}

// newPTab opens Chromium at 1280×800 on s, signed out.
func newPTab(t *testing.T, s *server) *ptab {
	t.Helper()
	ct := chromium.NewTab(t, "dashboard", false)
	return &ptab{Tab: ct, srv: s, rec: chromium.Record(t, ct.Ctx)}
}

// open starts Chromium at 1280×800 on the dashboard and signs in through
// the form.
func (s *server) open(t *testing.T) *ptab {
	t.Helper()
	tb := newPTab(t, s)
	tb.Run(chromedp.Navigate(s.URL + "/dashboard"))
	tb.WaitText("Sign in to idgate")
	tb.Run(chromedp.SendKeys(`input[name=email]`, s.Email), chromedp.SendKeys(`input[name=password]`, s.Password),
		chromedp.Click(`form.signin button[type=submit]`))
	tb.Wait(`document.querySelector("header.top") !== null`)
	return tb
}

// goTo navigates inside the app (the fragment router).
func (tb *ptab) goTo(hash string) {
	tb.T.Helper()
	q, _ := json.Marshal(hash)
	eval[bool](tb, fmt.Sprintf(`(location.hash = %s, true)`, q))
}

// grantClipboard lets the page write and read the clipboard.
func (tb *ptab) grantClipboard() {
	tb.T.Helper()
	if _, err := chromedp.CallBrowser(tb.Ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "clipboard-read"}, Setting: browser.PermissionSettingGranted, Origin: tb.srv.URL,
	}); err != nil {
		tb.T.Fatal(err)
	}
	if _, err := chromedp.Call(tb.Ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		tb.T.Fatal(err)
	}
}

// neverSent fails if any request's URL or body carried one of secrets.
func (tb *ptab) neverSent(secrets ...string) {
	tb.T.Helper()
	for _, r := range tb.rec.Sent() {
		for _, s := range secrets {
			if strings.Contains(r.URL, s) || bytes.Contains(r.Body, []byte(s)) {
				tb.T.Errorf("%s %s carried a secret the page must keep (%.12q…)", r.Method, r.URL, s)
			}
		}
	}
}
