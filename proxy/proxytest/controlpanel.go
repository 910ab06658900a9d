package proxytest

import (
	"context"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
)

// controlPanel is the demo store's control panel below /manage, as far as
// the app goes: the Apps page installs, opens and uninstalls idgate
// (BigCommerce's steps: the auth callback in the app's frame, the load
// callback with a new signed payload each time the app is opened, the
// uninstall callback from BigCommerce's servers), and lists what the app
// put on the store (footer scripts, webhooks) and its orders with their
// statuses, which a merchant sees in the real control panel.
type controlPanel struct {
	app *AppEnv

	mu        sync.Mutex
	installed bool
}

var managePage = template.Must(template.New("manage").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo store — control panel</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#222;background:#f6f7f9}
header{padding:12px 24px;background:#34313f;color:#fff}header a{color:#fff}
main{max-width:1100px;margin:16px auto;padding:0 24px}
section{background:#fff;border:1px solid #dde;border-radius:4px;padding:12px 16px;margin-bottom:16px}
h1{font-size:20px;margin:0}h2{font-size:17px;margin:0 0 8px}
.button{font:inherit;padding:8px 14px;border:1px solid #3c64f4;border-radius:4px;background:#3c64f4;color:#fff;text-decoration:none;cursor:pointer}
.button.plain{background:#fff;color:#3c64f4}
iframe{width:100%;height:760px;border:1px solid #dde;background:#fff}
table{border-collapse:collapse}td,th{padding:4px 12px 4px 0;text-align:left}
.note{color:#555;font-size:14px}
</style></head>
<body><header><h1>Demo store control panel</h1> <span class="note" style="color:#ddd">(a BigCommerce double: <a href="/">the storefront</a>)</span></header>
<main>
{{with .Message}}<p role="status">{{.}}</p>{{end}}
<section aria-labelledby="apps"><h2 id="apps">Apps: idgate ID verification</h2>
{{if .Frame}}<iframe title="idgate" src="{{.Frame}}"></iframe>
{{else if .Installed}}<a class="button" href="/manage/app">Open idgate</a>{{else}}<a class="button" href="/manage/app/install">Install idgate</a> <span class="note">asks for: {{.Scopes}}</span>{{end}}
{{if .Installed}}<form method="post" action="/manage/app/uninstall" style="margin-top:8px"><button class="button plain" type="submit">Uninstall idgate</button></form>{{end}}
</section>
{{if .Frame}}<p class="note">The lists below are as this page loaded, before the app's frame: <a href="/manage">reload</a> to see what it changed.</p>{{end}}
<section aria-labelledby="orders"><h2 id="orders">Orders</h2>
{{if .Orders}}<table class="orders"><tr><th>Order</th><th>Total</th><th>Status</th></tr>
{{range .Orders}}<tr data-order="{{.ID}}"><td>#{{.ID}}</td><td>${{.Total}}</td><td class="status">{{.StatusName}}</td></tr>{{end}}</table>
{{else}}<p>No orders yet.</p>{{end}}</section>
<section aria-labelledby="storefront"><h2 id="storefront">Storefront scripts and webhooks</h2>
<ul class="installed">{{range .Scripts}}<li class="script">Script: {{.}}</li>{{end}}{{range .Webhooks}}<li class="webhook">Webhook {{.Scope}} → {{.Destination}}</li>{{end}}</ul>
{{if not (or .Scripts .Webhooks)}}<p class="nothing">None.</p>{{end}}</section>
</main></body></html>`))

type manageView struct {
	Installed      bool
	Frame, Message string
	Scopes         string
	Orders         []orderRow
	Scripts        []string
	Webhooks       []bigcommercetest.Webhook
}

// orderRow is one order as the control panel lists it.
type orderRow struct {
	ID                int64
	Total, StatusName string
}

// ServeHTTP serves /manage and /manage/app...
func (cp *controlPanel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a := cp.app
	v := manageView{Scopes: strings.Join(bigcommerce.AppScopes, " ")}
	switch {
	case r.URL.Path == "/manage" && r.Method == http.MethodGet:
	case r.URL.Path == "/manage/app/install" && r.Method == http.MethodGet:
		// The merchant clicked Install and accepted the scopes: the
		// control panel opens the auth callback in the app's frame.
		q, err := a.ControlPanel.Install(a.Hash, a.Owner, v.Scopes)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		cp.setInstalled(true)
		v.Frame = a.ProxyURL + proxyhttp.AuthCallbackPath + "?" + q.Encode()
	case r.URL.Path == "/manage/app" && r.Method == http.MethodGet && cp.isInstalled():
		v.Frame = a.ProxyURL + proxyhttp.LoadCallbackPath + "?signed_payload_jwt=" + url.QueryEscape(a.ControlPanel.SignedPayload(a.Hash, a.Owner))
	case r.URL.Path == "/manage/app/uninstall" && r.Method == http.MethodPost && cp.isInstalled():
		// From BigCommerce's servers, not the browser.
		v.Message = "Uninstalled idgate. " + cp.callback(r.Context(), proxyhttp.UninstallCallbackPath)
		cp.setInstalled(false)
	default:
		http.NotFound(w, r)
		return
	}
	v.Installed = cp.isInstalled()
	for _, o := range a.Double.Orders() {
		// The platform writes totals with four decimals ("60.0000").
		v.Orders = append(v.Orders, orderRow{ID: o.ID, Total: strings.TrimSuffix(o.Total, "00"), StatusName: o.StatusName()})
	}
	for _, s := range a.Double.Scripts() {
		what, _ := s.Fields["src"].(string)
		if html, ok := s.Fields["html"].(string); ok {
			what = html
		}
		v.Scripts = append(v.Scripts, fmt.Sprintf("%v (%v): %s", s.Fields["name"], s.Fields["visibility"], what))
	}
	v.Webhooks = a.Double.Webhooks()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// The load payload rides in the frame's URL: no Referer carries it on.
	w.Header().Set("Referrer-Policy", "no-referrer")
	_ = managePage.Execute(w, v)
}

// callback sends the uninstall callback as BigCommerce's servers do and
// says what the app answered.
func (cp *controlPanel) callback(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	u := cp.app.ProxyURL + path + "?signed_payload_jwt=" + url.QueryEscape(cp.app.ControlPanel.SignedPayload(cp.app.Hash, cp.app.Owner))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err.Error()
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "The app did not answer: " + err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	return "The app answered " + resp.Status + ": " + strings.TrimSpace(string(body))
}

func (cp *controlPanel) setInstalled(v bool) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	cp.installed = v
}

func (cp *controlPanel) isInstalled() bool {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.installed
}
