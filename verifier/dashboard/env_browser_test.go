package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/axe"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
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
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	})
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
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.bearer != "" {
		req.Header.Set("Authorization", s.bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		s.t.Fatalf("%s %s: %d, want %d: %s", method, path, resp.StatusCode, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			s.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

// ptab is one Chromium tab on the dashboard; it records every request the
// page sends, with its body.
type ptab struct {
	t   *testing.T
	ctx context.Context
	srv *server

	mu   sync.Mutex
	reqs []sentRequest
}

type sentRequest struct {
	Method, URL string
	Body        []byte
}

// open starts Chromium at 1280×800 on the dashboard and signs in through
// the form.
func (s *server) open(t *testing.T) *ptab {
	t.Helper()
	tb := &ptab{t: t, ctx: chromium.New(t), srv: s}
	tb.record()
	tb.size(false)
	tb.run(chromedp.Navigate(s.URL + "/dashboard"))
	tb.waitText("Sign in to idgate")
	tb.run(chromedp.SendKeys(`input[name=email]`, s.Email), chromedp.SendKeys(`input[name=password]`, s.Password),
		chromedp.Click(`form.signin button[type=submit]`))
	tb.wait(`document.querySelector("header.top") !== null`)
	return tb
}

// record keeps every request the tab sends, with its body (sent).
func (tb *ptab) record() {
	tb.t.Helper()
	if err := chromedp.Listen(tb.ctx, func(ev any) {
		e, ok := ev.(*network.EventRequestWillBeSent)
		if !ok || e.Request == nil {
			return
		}
		r := sentRequest{Method: e.Request.Method, URL: e.Request.URL}
		for _, p := range e.Request.PostDataEntries {
			r.Body = append(r.Body, p.Bytes...)
		}
		tb.mu.Lock()
		tb.reqs = append(tb.reqs, r)
		tb.mu.Unlock()
	}); err != nil {
		tb.t.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, network.Enable, network.EnableParams{}); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *ptab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *ptab) size(phone bool) {
	tb.t.Helper()
	if phone {
		tb.run(chromium.Phone())
	} else {
		tb.run(chromedp.EmulateViewport(1280, 800))
	}
}

// wait polls a JavaScript condition until it is true (30 s).
func (tb *ptab) wait(cond string) {
	tb.t.Helper()
	_, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		tb.t.Fatalf("never true: %s: %v\npage reads:\n%s", cond, err, tb.text())
	}
}

// waitText waits until the page's text contains s.
func (tb *ptab) waitText(s string) {
	tb.t.Helper()
	q, _ := json.Marshal(s)
	tb.wait(fmt.Sprintf(`document.body.innerText.includes(%s)`, q))
}

func (tb *ptab) text() string {
	out, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`document.body.innerText`))
	return out
}

func evalJS[T any](tb *ptab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// go navigates inside the app (the fragment router).
func (tb *ptab) goTo(hash string) {
	tb.t.Helper()
	q, _ := json.Marshal(hash)
	evalJS[bool](tb, fmt.Sprintf(`(location.hash = %s, true)`, q))
}

// grantClipboard lets the page write and read the clipboard.
func (tb *ptab) grantClipboard() {
	tb.t.Helper()
	if _, err := chromedp.CallBrowser(tb.ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "clipboard-read"}, Setting: browser.PermissionSettingGranted, Origin: tb.srv.URL,
	}); err != nil {
		tb.t.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		tb.t.Fatal(err)
	}
}

// sent are the requests the page sent so far.
func (tb *ptab) sent() []sentRequest {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]sentRequest(nil), tb.reqs...)
}

// neverSent fails if any request's URL or body carried one of secrets.
func (tb *ptab) neverSent(secrets ...string) {
	tb.t.Helper()
	for _, r := range tb.sent() {
		for _, s := range secrets {
			if strings.Contains(r.URL, s) || bytes.Contains(r.Body, []byte(s)) {
				tb.t.Errorf("%s %s carried a secret the page must keep (%.12q…)", r.Method, r.URL, s)
			}
		}
	}
}

// shoot writes the page at 1280×800 and 390×844 under
// var/screenshots/dashboard/ and checks each with axe-core (WCAG A/AA).
func (tb *ptab) shoot(name string) {
	tb.t.Helper()
	dir := filepath.Join(testkit.RepoRoot(tb.t), "var", "screenshots", "dashboard")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.t.Fatal(err)
	}
	for _, phone := range []bool{false, true} {
		tb.size(phone)
		suffix := "1280x800"
		if phone {
			suffix = "390x844"
		}
		png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			tb.t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-"+suffix+".png"), png, 0o644); err != nil {
			tb.t.Fatal(err)
		}
		if vs := axe.Check(tb.t, tb.ctx, ""); len(vs) != 0 {
			tb.t.Errorf("%s at %s: %d accessibility violations:\n%v", name, suffix, len(vs), vs)
		}
	}
	tb.size(false)
}
