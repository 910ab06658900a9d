package http_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/idgate/idgate/internal/cache/memory"
	rlmemory "github.com/idgate/idgate/internal/ratelimit/memory"
	"github.com/idgate/idgate/internal/seal"
	"github.com/idgate/idgate/internal/seen"
	seenmemory "github.com/idgate/idgate/internal/seen/memory"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/proxy/storefile"
	"github.com/idgate/idgate/proxy/verifierapi"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/verifiertest"
)

// appPublicURL is the proxy's public URL as the app registers it (the
// script's host and the webhooks' destination: https on 443); requests in
// these tests go to the test server itself.
const appPublicURL = "https://shop-proxy.example"

// appWorld is BigCommerce's control panel with two stores and N proxy
// instances sharing one store file and key, as in production.
type appWorld struct {
	cp       *bigcommercetest.ControlPanel
	registry *storefile.Stores // the first instance's
	doubles  map[string]*bigcommercetest.Double
	proxies  []string // base URLs
	loads    *recordingSet
	// verifier is a real one on loopback, with the merchant's account
	// (merchantEmail, merchantPassword) the settings page links to.
	verifier *verifiertest.Verifier
	account  verifier.Account
	key      *seal.Sealer // seals the stores' secrets and the shopper references
}

const (
	merchantEmail    = "merchant@example.com"
	merchantPassword = "correct horse battery staple"
)

// recordingSet is a seen.Set that keeps the TTLs it was asked for.
type recordingSet struct {
	seen.Set
	mu   sync.Mutex
	ttls []time.Duration
}

func (r *recordingSet) Add(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	r.mu.Lock()
	r.ttls = append(r.ttls, ttl)
	r.mu.Unlock()
	return r.Set.Add(ctx, key, ttl)
}

var (
	installer = bigcommerce.AppUser{ID: 1, Email: "owner@example.com"}
	staff     = bigcommerce.AppUser{ID: 42, Email: "staff@example.com", Locale: "en-US"}
)

func newAppWorld(t *testing.T, instances int) *appWorld {
	t.Helper()
	return newAppWorldFramedBy(t, instances, "https://cp-{store_hash}.example")
}

// newAppWorldFramedBy is newAppWorld with the control panel at origin.
func newAppWorldFramedBy(t *testing.T, instances int, origin string) *appWorld {
	t.Helper()
	w := &appWorld{doubles: map[string]*bigcommercetest.Double{}}
	var ds []*bigcommercetest.Double
	for _, hash := range []string{"storea1", "storeb2"} {
		d := bigcommercetest.Start(t, bigcommercetest.Options{StoreHash: hash, Token: "token-" + hash})
		w.doubles[hash] = d
		ds = append(ds, d)
	}
	w.cp = bigcommercetest.StartControlPanel(t, bigcommercetest.ControlPanelOptions{RedirectURI: appPublicURL + proxyhttp.AuthCallbackPath}, ds...)
	path := filepath.Join(t.TempDir(), "stores.json")
	key := seal.Ephemeral()
	// One record of taken load payloads for every instance, as their
	// shared Redis is.
	w.loads = &recordingSet{Set: seenmemory.New(nil, 0)}
	w.verifier = verifiertest.Start(t, verifiertest.Options{Webhooks: true})
	acct, err := verifier.NewAccount(merchantEmail, merchantPassword, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.verifier.Store.CreateAccount(context.Background(), acct); err != nil {
		t.Fatal(err)
	}
	w.account = acct
	w.key = key
	accounts, err := verifierapi.New(w.verifier.URL, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for range instances {
		reg, err := storefile.Load(path, key)
		if err != nil {
			t.Fatal(err)
		}
		if w.registry == nil {
			w.registry = reg
		}
		app := &proxy.App{
			Registry: reg, Sealer: key, APIBaseURL: w.cp.APIBaseURL(), PublicURL: appPublicURL,
			OAuth: bigcommerce.App{
				ClientID: bigcommercetest.AppClientID, ClientSecret: bigcommercetest.AppClientSecret,
				RedirectURI: appPublicURL + proxyhttp.AuthCallbackPath, LoginURL: w.cp.URL,
			},
			ControlPanelURL: origin, Seen: w.loads, Accounts: accounts,
		}
		svc := &proxy.Service{Stores: reg, Sealer: key, Cache: memory.New(nil), PublicURL: appPublicURL, Verifier: accounts, Limiter: rlmemory.New(nil)}
		fapp, err := proxyhttp.New(svc, slog.New(slog.DiscardHandler), proxyhttp.WithApp(app))
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = fapp.Listener(ln) }()
		t.Cleanup(func() { _ = fapp.Shutdown(); _ = ln.Close() })
		w.proxies = append(w.proxies, "http://"+ln.Addr().String())
	}
	return w
}

// install runs the merchant's click on store hash through proxy instance
// i and returns the settings page.
func (w *appWorld) install(t *testing.T, i int, hash string) (int, http.Header, string) {
	t.Helper()
	q, err := w.cp.Install(hash, installer, strings.Join(bigcommerce.AppScopes, " "))
	if err != nil {
		t.Fatal(err)
	}
	code, h, body := get(t, w.proxies[i]+proxyhttp.AuthCallbackPath+"?"+q.Encode(), "", "")
	return code, h, string(body)
}

// mustInstall is install, which must answer the settings page.
func (w *appWorld) mustInstall(t *testing.T, i int, hash string) string {
	t.Helper()
	code, _, page := w.install(t, i, hash)
	if code != http.StatusOK {
		t.Fatalf("install %s on %d: %d %s", hash, i, code, page)
	}
	return page
}

// mustLoad opens store hash's settings page through instance i, as the
// control panel does (a new payload each time).
func (w *appWorld) mustLoad(t *testing.T, i int, hash string) string {
	t.Helper()
	code, _, page := w.callback(t, i, proxyhttp.LoadCallbackPath, w.cp.SignedPayload(hash, installer))
	if code != http.StatusOK {
		t.Fatalf("load %s on %d: %d %s", hash, i, code, page)
	}
	return page
}

func (w *appWorld) callback(t *testing.T, i int, path, payload string) (int, http.Header, string) {
	t.Helper()
	code, h, body := get(t, w.proxies[i]+path+"?signed_payload_jwt="+url.QueryEscape(payload), "", "")
	return code, h, string(body)
}

var sessionField = regexp.MustCompile(`name="session" value="([^"]+)"`)

func session(t *testing.T, page string) string {
	t.Helper()
	m := sessionField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no session in page:\n%s", page)
	}
	return m[1]
}

// post submits the settings form of store hash.
func (w *appWorld) post(t *testing.T, i int, hash string, form url.Values) (int, string) {
	t.Helper()
	code, _, body := w.submit(t, i, "/app/stores/"+hash+"/settings", form, nil)
	return code, body
}

// submit posts one of the app's forms to path on instance i, as its page
// does; header adds to or replaces the browser's headers.
func (w *appWorld) submit(t *testing.T, i int, path string, form url.Values, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, w.proxies[i]+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", w.proxies[i])
	for k, v := range header {
		req.Header.Set(k, v)
	}
	code, h, body := do(t, req)
	return code, h, string(body)
}

// link signs in to the merchant's verifier account on store hash's
// settings page (instance i) and makes the test key; it returns the page.
func (w *appWorld) link(t *testing.T, i int, hash, sess string, mode string) string {
	t.Helper()
	code, _, page := w.submit(t, i, "/app/stores/"+hash+"/link", url.Values{
		"session": {sess}, "email": {merchantEmail}, "password": {merchantPassword}, "key_mode": {mode},
	}, nil)
	if code != http.StatusOK || !strings.Contains(page, "Linked.") {
		t.Fatalf("link %s on %d: %d %s", hash, i, code, page)
	}
	return page
}

// settingsForm is the settings page's form as a merchant fills it in.
func settingsForm(sess string) url.Values {
	return url.Values{
		"session": {sess}, "require_authentic": {"1"}, "min_face_match": {"likely_match"}, "min_age": {"21"}, "order_guard": {"1"}, "test_mode": {"1"},
		"reuse_days": {"30"}, "release_status": {"0"},
	}
}

func appStatus(t *testing.T, w *appWorld, i int, hash string) (int, proxy.Status) {
	t.Helper()
	code, _, body := get(t, w.proxies[i]+"/proxy/v1/stores/"+hash+"/status?cart_id="+cartA, "https://store-"+hash+".mybigcommerce.com", "")
	var st proxy.Status
	if code == http.StatusOK {
		if err := json.Unmarshal(body, &st); err != nil {
			t.Fatal(err)
		}
	}
	return code, st
}

// One click installs: the code is exchanged (the control panel checks the
// request against BigCommerce's guide), the token is sealed in the store
// file, the footer script and both order webhooks are on the store, and
// the settings page opens, framed only by the store's control panel. The
// store waits, invisible to shoppers, until the merchant links the
// account; then its choices apply at once.
func TestAppInstallLinkAndSettings(t *testing.T) {
	w := newAppWorld(t, 1)
	code, h, page := w.install(t, 0, "storea1")
	if code != http.StatusOK {
		t.Fatalf("auth callback: %d %s", code, page)
	}
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors https://cp-storea1.example") || strings.Contains(csp, "script-src") || h.Get("X-Frame-Options") != "" {
		t.Errorf("page CSP %q, X-Frame-Options %q: want framing by the control panel only, no script", csp, h.Get("X-Frame-Options"))
	}
	if h.Get("Cache-Control") != "no-store" || strings.Contains(page, "token-storea1") || strings.Contains(page, bigcommercetest.AppClientSecret) {
		t.Errorf("the page is cached or shows a secret")
	}
	// The frame reloaded: the code is spent, and the answer says so.
	q, err := w.cp.Install("storea1", installer, strings.Join(bigcommerce.AppScopes, " "))
	if err != nil {
		t.Fatal(err)
	}
	auth := w.proxies[0] + proxyhttp.AuthCallbackPath + "?"
	if code, _, _ := get(t, auth+q.Encode(), "", ""); code != http.StatusOK {
		t.Fatalf("reinstall: %d", code)
	}
	if code, _, body := get(t, auth+q.Encode(), "", ""); code != http.StatusUnauthorized || !strings.Contains(string(body), "install the app again") {
		t.Errorf("a spent code: %d %s, want 401 asking to install again", code, body)
	}
	q.Set("scope", "store_v2_orders")
	if code, _, body := get(t, auth+q.Encode(), "", ""); code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "store_cart") {
		t.Errorf("a narrow grant: %d %s, want 422 naming the missing scopes", code, body)
	}
	if s, h := w.doubles["storea1"].Scripts(), w.doubles["storea1"].Webhooks(); len(s) != 2 || len(h) != 2 {
		t.Errorf("after a reinstall: scripts %d, webhooks %d; want two and two", len(s), len(h))
	}
	d := w.doubles["storea1"]
	scripts, hooks := d.Scripts(), d.Webhooks()
	// The widget on all pages; on the order confirmation page, the order
	// just placed, whose cart the shopper verifies after the order.
	if len(scripts) != 2 || !strings.HasPrefix(scripts[0].Fields["src"].(string), appPublicURL+"/widget/v1/idgate.js?store=storea1&client="+bigcommercetest.AppClientID) ||
		scripts[1].Fields["kind"] != "script_tag" || scripts[1].Fields["visibility"] != "order_confirmation" ||
		scripts[1].Fields["html"] != `<script data-idgate-order="{{checkout.order.id}}"></script>` {
		t.Fatalf("scripts %+v", scripts)
	}
	if len(hooks) != 2 || hooks[0].Destination != appPublicURL+"/proxy/v1/stores/storea1/order-webhook" {
		t.Fatalf("webhooks %+v", hooks)
	}
	if code, st := appStatus(t, w, 0, "storea1"); code != http.StatusOK || st.Active || st.HoldCheckout {
		t.Fatalf("unlinked store's status %d %+v: want inactive", code, st)
	}
	sess := session(t, page)
	w.link(t, 0, "storea1", sess, "test")
	code, page = w.post(t, 0, "storea1", settingsForm(sess))
	if code != http.StatusOK || !strings.Contains(page, "Settings saved") {
		t.Fatalf("save: %d %s", code, page)
	}
	if code, st := appStatus(t, w, 0, "storea1"); code != http.StatusOK || !st.Active {
		t.Fatalf("linked store's status %d %+v: want active", code, st)
	}
	customDomains(t, w, sess)
	// Which orders: the triggers are saved and shown back, tidied.
	f := settingsForm(sess)
	f.Set("min_total", "50")
	f.Set("ship_to_countries", " ca,US ,")
	f.Set("ship_to_states", "Texas")
	f.Set("reuse_days", "7")
	f.Set("release_status", "9")
	if code, page = w.post(t, 0, "storea1", f); code != http.StatusOK ||
		!strings.Contains(page, `value="50.00"`) || !strings.Contains(page, `value="CA, US"`) || !strings.Contains(page, `value="Texas"`) ||
		!strings.Contains(page, `name="reuse_days" type="number" inputmode="numeric" min="1" max="365" value="7"`) ||
		!strings.Contains(page, `name="release_status" value="9" checked> Awaiting Shipment: packed, waiting for the carrier`) ||
		strings.Contains(page, `name="release_status" value="0" checked`) {
		t.Fatalf("triggers and release status: %d %s", code, page)
	}
	if st, err := w.registry.Store(context.Background(), "storea1"); err != nil || st.ReleaseStatus != 9 {
		t.Fatalf("saved release status: %v %+v", err, st)
	}
	// The default, shown on the page the store opens with, is where the
	// order was before it was held.
	if code, page = w.post(t, 0, "storea1", settingsForm(sess)); code != http.StatusOK || !strings.Contains(page, `name="release_status" value="0" checked> The status it had before it was held`) {
		t.Fatalf("release status back to the default: %d %s", code, page)
	}
	// A test key on a live store, an unknown choice and an impossible ruleset are shown
	// on the page and change nothing.
	for name, edit := range map[string]func(url.Values){
		"no face choice": func(f url.Values) { f.Set("min_face_match", "great") },
		"nothing checked": func(f url.Values) {
			f.Del("require_authentic")
			f.Set("min_face_match", "none")
			f.Set("min_age", "0")
		},
		"live store, test key": func(f url.Values) { f.Del("test_mode") },
		"a total in words":     func(f url.Values) { f.Set("min_total", "fifty") },
		"a country's name":     func(f url.Values) { f.Set("ship_to_countries", "USA") },
		"reuse for no days":    func(f url.Values) { f.Set("reuse_days", "0") },
		"reuse for ever":       func(f url.Values) { f.Set("reuse_days", "366") },
		"reuse in words":       func(f url.Values) { f.Set("reuse_days", "a month") },
		"release to Shipped":   func(f url.Values) { f.Set("release_status", "2") },
		"release to held":      func(f url.Values) { f.Set("release_status", "12") },
		"no release status":    func(f url.Values) { f.Del("release_status") },
	} {
		f := settingsForm(sess)
		edit(f)
		if code, page := w.post(t, 0, "storea1", f); code != http.StatusUnprocessableEntity || !strings.Contains(page, "Not saved:") {
			t.Errorf("%s: %d, want 422 with the reason on the page", name, code)
		}
	}
	if st, err := w.registry.Store(context.Background(), "storea1"); err != nil || st.ReleaseStatus != proxy.ReleaseAsBefore {
		t.Errorf("a refused form changed the release status: %v %+v", err, st)
	}
	// CSRF: another site's page has no session to send, and its Origin
	// is refused before anything is read.
	big := settingsForm(sess)
	big.Set("ship_to_states", strings.Repeat("x", 9<<10))
	if code, _ := w.post(t, 0, "storea1", big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 9 KB form: %d, want 413", code)
	}
	if code, _ := w.post(t, 0, "storea1", settingsForm("")); code != http.StatusUnauthorized {
		t.Errorf("no session: %d, want 401", code)
	}
	for _, h := range [][2]string{{"Origin", "https://evil.example"}, {"Sec-Fetch-Site", "cross-site"}, {"Sec-Fetch-Site", "same-site"}} {
		req, _ := http.NewRequest(http.MethodPost, w.proxies[0]+"/app/stores/storea1/settings", strings.NewReader(settingsForm(sess).Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set(h[0], h[1])
		if code, _, _ := do(t, req); code != http.StatusForbidden {
			t.Errorf("%s: %s: %d, want 403", h[0], h[1], code)
		}
	}
}

// The load callback opens the settings page only for a payload the app's
// secret signed, for this app, unexpired, naming an installed store; a
// session opens only its own store's settings.
func TestAppLoadChecksTheSignedPayload(t *testing.T) {
	w := newAppWorld(t, 1)
	w.mustInstall(t, 0, "storea1")
	code, _, page := w.callback(t, 0, proxyhttp.LoadCallbackPath, w.cp.SignedPayload("storea1", installer))
	if code != http.StatusOK || !strings.Contains(page, "<form") {
		t.Fatalf("load: %d %s", code, page)
	}
	now := time.Now()
	sign := func(key string, edit func(jwt.MapClaims)) string {
		c := bigcommerce.SignedPayloadClaims(bigcommercetest.AppClientID, "storea1", installer, installer, now, "j")
		edit(c)
		s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(key))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for name, tok := range map[string]string{
		"bad signature":  sign("not-the-app-secret", func(jwt.MapClaims) {}),
		"wrong audience": sign(bigcommercetest.AppClientSecret, func(c jwt.MapClaims) { c["aud"] = "another-app" }),
		"expired":        sign(bigcommercetest.AppClientSecret, func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Minute).Unix() }),
		"store not installed": sign(bigcommercetest.AppClientSecret, func(c jwt.MapClaims) {
			c["sub"] = "stores/storeb2"
		}),
		"missing": "",
	} {
		code, h, body := w.callback(t, 0, proxyhttp.LoadCallbackPath, tok)
		if code != http.StatusUnauthorized && code != http.StatusNotFound {
			t.Errorf("%s: %d %s, want 401 or 404", name, code, body)
		}
		if strings.Contains(body, "<form") || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: the refusal is a page or may be framed", name)
		}
	}
	// Another store: store B's session does not open store A's settings.
	w.mustInstall(t, 0, "storeb2")
	_, _, pageB := w.callback(t, 0, proxyhttp.LoadCallbackPath, w.cp.SignedPayload("storeb2", installer))
	if code, _ := w.post(t, 0, "storea1", settingsForm(session(t, pageB))); code != http.StatusUnauthorized {
		t.Errorf("store b's session on store a: %d, want 401", code)
	}
	if code, _ := w.post(t, 0, "storeb2", settingsForm(session(t, pageB))); code != http.StatusOK {
		t.Errorf("store b's session on store b: %d, want 200", code)
	}
}

// A load payload opens the settings page once, on any instance: taken
// again within its validity (its URL kept by a browser's history, a log, a
// Referer) it is refused; the control panel's next payload (another jti)
// opens it. The record lasts as long as the payload (24 hours); that it is
// forgotten then is seentest's ExpiryForgets, for both backends.
func TestAppLoadPayloadIsSingleUse(t *testing.T) {
	w := newAppWorld(t, 2)
	w.mustInstall(t, 0, "storea1")
	payload := w.cp.SignedPayload("storea1", installer)
	if code, _, page := w.callback(t, 0, proxyhttp.LoadCallbackPath, payload); code != http.StatusOK || !strings.Contains(page, "<form") {
		t.Fatalf("first load: %d %s", code, page)
	}
	for i := range 2 {
		code, h, body := w.callback(t, i, proxyhttp.LoadCallbackPath, payload)
		if code != http.StatusUnauthorized || !strings.Contains(body, "used already") || strings.Contains(body, "<form") {
			t.Errorf("replay on instance %d: %d %s, want 401 used already", i, code, body)
		}
		if h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("replay on instance %d: the refusal may be framed", i)
		}
	}
	if code, _, page := w.callback(t, 1, proxyhttp.LoadCallbackPath, w.cp.SignedPayload("storea1", installer)); code != http.StatusOK || !strings.Contains(page, "<form") {
		t.Errorf("the next load (another jti): %d %s", code, page)
	}
	w.loads.mu.Lock()
	defer w.loads.mu.Unlock()
	for _, ttl := range w.loads.ttls {
		if ttl < 24*time.Hour-time.Minute || ttl > 24*time.Hour {
			t.Errorf("a payload recorded for %s, want its 24 hours", ttl)
		}
	}
}

// A second user the control panel lets load the app is added; remove_user
// takes them out and their open page stops working; uninstall removes our
// script and webhooks from the store and the store (and its secrets) from
// the proxy.
func TestAppUsersAndUninstall(t *testing.T) {
	w := newAppWorld(t, 1)
	w.mustInstall(t, 0, "storea1")
	_, _, page := w.callback(t, 0, proxyhttp.LoadCallbackPath, w.cp.SignedPayload("storea1", staff))
	staffSession := session(t, page)
	if code, _ := w.post(t, 0, "storea1", settingsForm(staffSession)); code != http.StatusOK {
		t.Fatalf("staff saves: %d", code)
	}
	if code, _, body := w.callback(t, 0, proxyhttp.RemoveUserPath, w.cp.SignedPayload("storea1", staff)); code != http.StatusOK {
		t.Fatalf("remove_user: %d %s", code, body)
	}
	if code, _ := w.post(t, 0, "storea1", settingsForm(staffSession)); code != http.StatusUnauthorized {
		t.Errorf("removed user's page: %d, want 401", code)
	}
	if code, _, _ := w.callback(t, 0, proxyhttp.UninstallCallbackPath, "forged.payload.value"); code != http.StatusUnauthorized {
		t.Errorf("forged uninstall: %d, want 401", code)
	}
	if len(w.doubles["storea1"].Scripts()) != 2 {
		t.Fatal("a forged uninstall removed something")
	}
	code, _, body := w.callback(t, 0, proxyhttp.UninstallCallbackPath, w.cp.SignedPayload("storea1", installer))
	if code != http.StatusOK || !strings.Contains(body, `"scripts_removed":2`) || !strings.Contains(body, `"webhooks_removed":2`) {
		t.Fatalf("uninstall: %d %s", code, body)
	}
	if s, h := w.doubles["storea1"].Scripts(), w.doubles["storea1"].Webhooks(); len(s) != 0 || len(h) != 0 {
		t.Errorf("left on the store: scripts %+v, webhooks %+v", s, h)
	}
	if code, _ := appStatus(t, w, 0, "storea1"); code != http.StatusNotFound {
		t.Errorf("uninstalled store's status: %d, want 404", code)
	}
	if code, _, _ := w.callback(t, 0, proxyhttp.LoadCallbackPath, w.cp.SignedPayload("storea1", installer)); code != http.StatusNotFound {
		t.Errorf("load after uninstall: %d, want 404", code)
	}
}

// Two proxy instances on one store file: a store installed through one
// is served by the other at once, its settings saved on the other are
// what the first serves, and its uninstall reaches both.
func TestAppStoresReachEveryInstance(t *testing.T) {
	w := newAppWorld(t, 2)
	if code, _ := appStatus(t, w, 1, "storea1"); code != http.StatusNotFound {
		t.Fatalf("before install: %d", code)
	}
	page := w.mustInstall(t, 0, "storea1")
	if code, st := appStatus(t, w, 1, "storea1"); code != http.StatusOK || st.Active {
		t.Fatalf("instance 1 after install on 0: %d %+v", code, st)
	}
	w.link(t, 1, "storea1", session(t, page), "test")
	if code, _ := w.post(t, 1, "storea1", settingsForm(session(t, page))); code != http.StatusOK {
		t.Fatalf("save on 1 with 0's page: %d", code)
	}
	if code, st := appStatus(t, w, 0, "storea1"); code != http.StatusOK || !st.Active {
		t.Fatalf("instance 0 after linking and saving on 1: %d %+v", code, st)
	}
	if code, _, _ := w.callback(t, 1, proxyhttp.UninstallCallbackPath, w.cp.SignedPayload("storea1", installer)); code != http.StatusOK {
		t.Fatal("uninstall on 1")
	}
	if code, _ := appStatus(t, w, 0, "storea1"); code != http.StatusNotFound {
		t.Errorf("instance 0 after uninstall on 1: %d, want 404", code)
	}
}

// customDomains: a store on its own domain lists it on the settings page.
// The widget is then answered there at once, but the key the page made
// does not allow it, so the verifier refuses its shoppers and the page
// says so until the merchant makes a new key; then they verify. What is
// not an https address, and too many, are refused and change nothing.
func customDomains(t *testing.T, w *appWorld, sess string) {
	t.Helper()
	const www, bare = "https://www.shop-a.example", "https://shop-a.example"
	start := func(origin string) int {
		req, _ := http.NewRequest(http.MethodPost, w.proxies[0]+"/proxy/v1/stores/storea1/verifications", strings.NewReader(`{"cart_id":"`+cartA+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		code, _, _ := do(t, req)
		return code
	}
	if code, _, _ := get(t, w.proxies[0]+"/proxy/v1/stores/storea1/status?cart_id="+cartA, www, ""); code != http.StatusForbidden {
		t.Fatalf("an address not listed: %d, want 403", code)
	}
	f := settingsForm(sess)
	f.Set("storefronts", www+"\n"+bare+"/\n"+www)
	code, page := w.post(t, 0, "storea1", f)
	if code != http.StatusOK || !strings.Contains(page, ">"+www+"\n"+bare+"</textarea>") ||
		!strings.Contains(page, "Shoppers at www.shop-a.example, shop-a.example cannot verify yet") {
		t.Fatalf("save the addresses: %d %s", code, page)
	}
	st, err := w.registry.Store(context.Background(), "storea1")
	if err != nil || strings.Join(st.AllowedOrigins, " ") != "https://store-storea1.mybigcommerce.com "+www+" "+bare {
		t.Fatalf("saved origins: %v %+v", err, st.AllowedOrigins)
	}
	if code, _, _ := get(t, w.proxies[0]+"/proxy/v1/stores/storea1/status?cart_id="+cartA, www, ""); code != http.StatusOK {
		t.Fatalf("status on the custom domain: %d", code)
	}
	// The verifier refuses it; a retry cannot help, so not a 503: 409,
	// which the merchant fixes with a new key.
	if code := start(www); code != http.StatusConflict {
		t.Fatalf("a start on an address the key does not allow: %d, want 409 (the verifier refused the key's origin)", code)
	}
	page = w.link(t, 0, "storea1", sess, "test")
	if strings.Contains(page, "cannot verify yet") {
		t.Errorf("after a new key the page still says an address is off it")
	}
	if code := start(www); code != http.StatusCreated {
		t.Fatalf("a start on the custom domain after the new key: %d", code)
	}
	for name, v := range map[string]string{
		"http":      "http://www.shop-a.example",
		"a path":    www + "/cart.php",
		"no scheme": "www.shop-a.example",
		"eleven":    strings.Repeat("https://a.example https://b.example https://c.example https://d.example ", 3)[:11*18],
	} {
		f := settingsForm(sess)
		f.Set("storefronts", v)
		if code, page := w.post(t, 0, "storea1", f); code != http.StatusUnprocessableEntity || !strings.Contains(page, "Not saved:") {
			t.Errorf("%s: %d, want 422 with the reason on the page", name, code)
		}
	}
	if st, _ := w.registry.Store(context.Background(), "storea1"); len(st.AllowedOrigins) != 3 {
		t.Errorf("a refused address changed the origins: %+v", st.AllowedOrigins)
	}
}
