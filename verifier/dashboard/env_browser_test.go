package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/verifier"
	verifierhttp "github.com/idgate/idgate/verifier/http"
	"github.com/idgate/idgate/verifier/sqlstore"
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
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "idgate.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	auth, err := verifier.NewAuthenticator(store, verifier.TokenConfig{Issuer: "idgate", Audience: "idgate-api", TTL: time.Hour,
		Keys: []verifier.SigningKey{{ID: "k", Secret: []byte("0123456789abcdef0123456789abcdef")}}}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := seal.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	ln, base := testkit.Listen(t)
	srv, err := verifierhttp.New(verifierhttp.Deps{
		Store: store, Limiter: memory.New(time.Now), Auth: auth, Now: time.Now,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Config: verifierhttp.Config{BodyLimit: 1 << 20, ReadTimeout: 30 * time.Second, IdleTimeout: 30 * time.Second,
			AuthLimit: verifierhttp.DefaultAuthLimit, PublicURL: base},
		Webhooks: verifierhttp.WebhookDeps{Queue: store, Secrets: verifier.WebhookSecrets{Store: store, Sealer: sealer, Now: time.Now}},
	})
	if err != nil {
		t.Fatal(err)
	}
	testkit.Serve(t, srv, ln)
	s := &server{t: t, URL: base, store: store, Email: "owner@example.com", Password: "correct horse battery"}
	if s.acct, err = verifier.NewAccount(s.Email, s.Password, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := store.CreateAccount(ctx, s.acct); err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	s.call("POST", "/auth", `{"email":"`+s.Email+`","password":"`+s.Password+`"}`, 200, &tok)
	s.bearer = "Bearer " + tok.AccessToken
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
