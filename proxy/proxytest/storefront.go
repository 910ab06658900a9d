package proxytest

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
)

// Storefront is a demo storefront with Cornerstone-like cart markup: the
// cart page with its "Check out" button, the header's cart preview and the
// wallet buttons, the storefront cart API and /customer/current.jwt, and
// the footer script tag as the Scripts API installs it.
type Storefront struct {
	URL string // its origin, http://127.0.0.1:port
	// Demo adds links that switch the cart and log a customer in and out.
	Demo bool

	env  *Env
	hash string
	// app: the store installs through the BigCommerce app; its pages
	// carry the scripts installed on it, checkout places orders, and the
	// control panel is below /manage.
	app *controlPanel

	mu       sync.Mutex
	cart     string
	customer int64
	tokenAge time.Duration
	orders   int64              // the app store's orders placed
	problems map[int64][]string // webhook deliveries that failed, by order
}

// ListenStorefront reserves the storefront's address first, because its
// origin must be in the store's configuration before the proxy starts.
func ListenStorefront(t testing.TB) (net.Listener, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln, "http://" + ln.Addr().String()
}

// ServeStorefront serves the store hash's storefront on ln until the test
// ends.
func ServeStorefront(t testing.TB, ln net.Listener, env *Env, hash string) *Storefront {
	t.Helper()
	sf := NewStorefront(env, hash, "http://"+ln.Addr().String())
	srv := &http.Server{Handler: sf, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return sf
}

// NewStorefront is the storefront of store hash served at url (its
// origin must be allowed for the store).
func NewStorefront(env *Env, hash, url string) *Storefront {
	return &Storefront{URL: url, env: env, hash: hash}
}

// SetShopper sets the session's cart ("" for none) and logged-in customer
// (0 for a guest).
func (sf *Storefront) SetShopper(cart string, customer int64) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	sf.cart, sf.customer = cart, customer
}

// SetTokenAge makes /customer/current.jwt issue tokens as if minted age
// ago (past their 15 minutes: expired).
func (sf *Storefront) SetTokenAge(age time.Duration) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	sf.tokenAge = age
}

func (sf *Storefront) shopper() (string, int64) {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	return sf.cart, sf.customer
}

// NewAppStorefront is the storefront of env's app store (Options.App),
// served at its StorefrontURL, with its control panel below /manage. A
// guest's cart of one $60 item is open.
func NewAppStorefront(env *Env, url string) *Storefront {
	sf := &Storefront{URL: url, env: env, hash: env.App.Hash, Demo: true, app: &controlPanel{app: env.App}, problems: map[int64][]string{}}
	sf.cart = sf.newCart()
	return sf
}

// ScriptSrc is the footer script URL for the store.
func (sf *Storefront) ScriptSrc() string {
	return proxy.ScriptURL(sf.env.URL, sf.hash, sf.env.Stores[sf.hash].AppClientID)
}

// scripts are the footer scripts (src) a page carries: the app store's
// are those installed on it for all pages (none before the app is, none
// after it is uninstalled).
func (sf *Storefront) scripts(twice bool) []string {
	if sf.app == nil {
		out := []string{sf.ScriptSrc()}
		if twice {
			out = append(out, sf.ScriptSrc())
		}
		return out
	}
	var out []string
	for _, s := range sf.app.app.Double.Scripts() {
		if src, ok := s.Fields["src"].(string); ok && s.Fields["visibility"] == "all_pages" {
			out = append(out, src)
		}
	}
	return out
}

var page = template.Must(template.New("cart").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo store — Your Cart</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#222}
header{display:flex;justify-content:space-between;padding:12px 24px;background:#f4f4f4}
main{max-width:720px;margin:24px auto;padding:0 24px}
.button{display:inline-block;padding:10px 18px;border:1px solid #444;border-radius:4px;text-decoration:none;color:#222;background:#fff}
.button--primary{background:#222;color:#fff}
table{width:100%;border-collapse:collapse;margin-bottom:16px}td{padding:8px;border-bottom:1px solid #ddd}
.demo-record{margin-top:32px;padding:12px;border:1px dashed #888;border-radius:4px;font-size:14px}
.demo-record pre{white-space:pre-wrap;word-break:break-all;font-size:12px;margin:8px 0 0}
</style></head>
<body>
<header><strong>Demo store</strong>
 <div class="previewCart"><div class="previewCartAction"><div class="previewCartAction-checkout">
  <a href="/checkout" class="button button--small button--primary">Check out</a></div></div></div></header>
<main class="page">
 {{if .Item}}<h1 class="page-heading">Your Cart (1 item)</h1>{{else}}<h1 class="page-heading">Your cart is empty</h1>{{end}}
 {{if .App}}<p class="demo">Demo: <a href="/demo/new-cart">new cart</a> · <a href="/manage">the store's control panel</a> (install the app there)</p>
 {{else if .Demo}}<p class="demo">Demo: <a href="/demo/new-cart">new cart</a> · <a href="/demo/login">log in as customer 42</a> · <a href="/demo/logout">log out</a></p>{{end}}
 {{with .Item}}<table class="cart"><tr><td>{{.}}</td><td>${{$.Price}}</td></tr></table>
 <div class="cart-totals">Grand total: ${{$.Price}}</div>
 <div class="cart-actions"><a class="button button--primary" href="/checkout" title="Click here to proceed to checkout">Check out</a></div>
 <div class="cart-additionalCheckoutButtons"><button type="button" class="button" onclick="location.href='/checkout'">Pay with Wallet</button></div>{{end}}
 {{with .Record}}<section class="demo-record" aria-label="What the plugin stored on this cart">
  <strong>Demo: what the plugin stored on this cart</strong> (BigCommerce metafield <code>idgate/verification</code>)
  {{if .Value}}<p>{{if .Pass}}A passing verification{{else}}A failing verification{{end}}{{if .Test}}, marked as a <strong>test verification</strong> (this store is in test mode){{end}}.</p>
  <details><summary>The stored value</summary><pre>{{.Value}}</pre></details>
  {{else}}<p>Nothing yet when this page loaded: verify your ID above, then reload the page to see what the plugin stored.</p>{{end}}
 </section>{{end}}
</main>
{{range .Scripts}}<script src="{{.}}"></script>
{{end}}</body></html>`))

// ServeHTTP serves the storefront. /?twice=1 includes the footer script
// twice, as a misconfigured store might; /?no-referrer=1 sends
// Referrer-Policy: no-referrer, as a store with a strict policy does (the
// verification page then learns the store from the widget's #from=).
func (sf *Storefront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cart, customer := sf.shopper()
	switch r.URL.Path {
	case "/", "/cart.php":
		scripts := sf.scripts(r.URL.Query().Get("twice") == "1")
		item, price := sf.item(cart)
		var record *cartRecord
		if sf.Demo {
			record = sf.record(cart)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// A cart page is the session's own and changes under it: a
		// shopper coming back from the verification page in the same tab
		// gets it afresh (and the demo's record with it), not a copy from
		// the back/forward cache.
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Query().Get("no-referrer") == "1" {
			w.Header().Set("Referrer-Policy", "no-referrer")
		}
		_ = page.Execute(w, struct {
			Scripts     []string
			Demo, App   bool
			Item, Price string
			Record      *cartRecord
		}{scripts, sf.Demo, sf.app != nil, item, price, record})
	case "/api/storefront/carts":
		carts := []map[string]any{}
		if cart != "" {
			_, price := sf.item(cart)
			carts = append(carts, map[string]any{"id": cart, "customerId": customer, "currency": map[string]string{"code": "USD"}, "cartAmount": json.Number(price)})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(carts)
	case "/customer/current.jwt":
		st := sf.env.Stores[sf.hash]
		if customer == 0 || r.URL.Query().Get("app_client_id") != st.AppClientID {
			http.Error(w, "not logged in", http.StatusNotFound)
			return
		}
		sf.mu.Lock()
		issued := sf.env.now().Add(-sf.tokenAge)
		sf.mu.Unlock()
		tok, err := bigcommercetest.CurrentCustomerJWT(sf.env.customer(customer), st.AppClientID, string(st.AppClientSecret), sf.hash, issued)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"token": tok})
	case "/demo/new-cart", "/demo/login", "/demo/logout":
		if !sf.Demo || r.Method != http.MethodGet || (sf.app != nil && r.URL.Path != "/demo/new-cart") {
			http.NotFound(w, r)
			return
		}
		switch r.URL.Path {
		case "/demo/new-cart":
			cart = sf.newCart()
		case "/demo/login":
			customer = 42
		default:
			customer = 0
		}
		sf.SetShopper(cart, customer)
		http.Redirect(w, r, "/", http.StatusSeeOther)
	case "/checkout":
		if sf.app != nil {
			sf.checkout(w, r, cart)
			return
		}
		fmt.Fprint(w, "<!doctype html><title>Checkout</title><h1>Checkout</h1>")
	case "/checkout/order-confirmation":
		sf.confirmation(w, r)
	default:
		if id, ok := strings.CutPrefix(r.URL.Path, "/api/storefront/orders/"); ok {
			sf.storefrontOrder(w, r, id)
			return
		}
		if sf.app != nil && (r.URL.Path == "/manage" || strings.HasPrefix(r.URL.Path, "/manage/")) {
			sf.app.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	}
}

// cartRecord is the outcome the plugin stored on the demo's cart, shown on
// its page so a newcomer sees what a real store would hold (and that a test
// verification's is marked as one). Value is empty while there is none.
type cartRecord struct {
	Value string
	Pass  bool
	Test  bool
}

// record reads the cart's outcome metafield from the BigCommerce double.
func (sf *Storefront) record(cart string) *cartRecord {
	r := &cartRecord{}
	d := sf.env.Doubles[sf.hash]
	if d == nil || cart == "" {
		return r
	}
	for _, m := range d.Metafields("cart", cart) {
		if m.Namespace != bigcommerce.Namespace || m.Key != bigcommerce.KeyOutcome {
			continue
		}
		var o bigcommerce.Outcome
		if err := json.Unmarshal([]byte(m.Value), &o); err != nil {
			continue
		}
		r.Value, r.Pass, r.Test = m.Value, o.Pass, o.Test
	}
	return r
}
