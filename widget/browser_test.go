package widget_test

import (
	"bytes"
	"context"
	"fmt"
	pngpkg "image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/qr/qrtest"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/axe"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/proxy/proxytest"
)

// requests records every request the page makes, with its headers.
type requests struct {
	mu  sync.Mutex
	all []*network.Request
}

func (r *requests) listen(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request != nil {
			r.mu.Lock()
			r.all = append(r.all, e.Request)
			r.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
}

func (r *requests) list() []*network.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*network.Request(nil), r.all...)
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join(testkit.RepoRoot(t), "testartifacts", "widget")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", file)
}

// state waits until the widget shows want and returns its text.
func state(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	expr := fmt.Sprintf(`(() => { const h = document.querySelector("[data-idgate-widget]");
		return h && h.getAttribute("data-state") === %q ? h.shadowRoot.textContent : ""; })()`, want)
	text, err := chromedp.Run(ctx, chromedp.Poll[string](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("[data-idgate-widget]")||{getAttribute:()=>"none"}).getAttribute("data-state")`))
		t.Fatalf("widget never reached %q (is %q): %v", want, got, err)
	}
	return text
}

// accessible fails on any WCAG A/AA violation inside the widget.
func accessible(t *testing.T, ctx context.Context, state string) {
	t.Helper()
	if vs := axe.Check(t, ctx, "[data-idgate-widget]"); len(vs) != 0 {
		t.Fatalf("%s widget: %d accessibility violations:\n%v", state, len(vs), vs)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

const checkoutHeld = `[".cart-actions .button--primary", ".previewCartAction-checkout .button", ".cart-additionalCheckoutButtons"]
	.every(s => { const e = document.querySelector(s); return e.getAttribute("aria-disabled") === "true" && getComputedStyle(e).pointerEvents === "none"; })`

const checkoutFree = `[".cart-actions .button--primary", ".previewCartAction-checkout .button", ".cart-additionalCheckoutButtons"]
	.every(s => { const e = document.querySelector(s); return !e.hasAttribute("aria-disabled") && getComputedStyle(e).pointerEvents !== "none"; })`

const (
	cart1 = "5c7d3b8e-2f41-4c6a-9d0e-1a2b3c4d5e6f"
	cart2 = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
)

// The whole shopper journey in one browser: held checkout, a failed then a
// passing verification arriving by signed webhook, the page updating
// without a reload, and the customer recognised on a later cart.
func TestWidgetInChromium(t *testing.T) {
	ctx := chromium.New(t)
	ln, origin := proxytest.ListenStorefront(t)
	env := proxytest.Start(t, proxytest.Options{Origins: []string{origin}, HoldCheckout: true})
	hash := "idgatetest1"
	sf := proxytest.ServeStorefront(t, ln, env, hash)
	sf.SetShopper(cart1, 42)
	var rec requests
	rec.listen(t, ctx)

	// Unverified: button shown, checkout held.
	if err := chromedp.Do(ctx, chromedp.Navigate(sf.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if text := state(t, ctx, "unverified"); !strings.Contains(text, "Verify ID") {
		t.Fatalf("unverified widget shows %q", text)
	}
	if !eval[bool](t, ctx, checkoutHeld) {
		t.Fatal("checkout buttons not held")
	}
	if eval[string](t, ctx, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button").getAttribute("type")`) != "button" {
		t.Fatal("Verify ID is not a real button")
	}
	// A click on a held button is cancelled (dispatchEvent is false), so
	// the link is not followed.
	if eval[bool](t, ctx, `document.querySelector(".cart-actions .button--primary").dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}))`) {
		t.Fatal("a click on the held checkout button was not cancelled")
	}
	accessible(t, ctx, "unverified")
	screenshot(t, ctx, "1-unverified-checkout-held")

	// Verify ID, from the keyboard: the proxy creates the verification.
	eval[bool](t, ctx, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button").focus(), true`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	if text := state(t, ctx, "pending"); !strings.Contains(text, "Open the verification") {
		t.Fatalf("pending widget shows %q", text)
	}
	created := env.Verifier.Created()
	if len(created) != 1 || created[0].Origin != origin {
		t.Fatalf("verifier creates: %+v", created)
	}
	// The QR code the proxy drew, shown on a desktop, scans to the link.
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.JSPath(`document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("svg[data-idgate-qr]")`)))
	if err != nil {
		t.Fatalf("screenshot of the QR code: %v", err)
	}
	img, err := pngpkg.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrtest.Read(img); err != nil || text != env.Verifier.URL+"/v/"+created[0].ID {
		t.Fatalf("QR code reads %q (%v), want the verification link", text, err)
	}
	accessible(t, ctx, "pending")
	screenshot(t, ctx, "2-pending-link-and-qr")

	// A failing result keeps checkout held, with a message.
	resp := env.Deliver(hash, proxytest.Result(created[0].ID, created[0].ExternalID, map[string]any{"face_match_score": "no_match"}))
	if resp.StatusCode != 200 {
		t.Fatalf("failing webhook: %d", resp.StatusCode)
	}
	if text := state(t, ctx, "failed"); !strings.Contains(text, "could not verify") {
		t.Fatalf("failed widget shows %q", text)
	}
	if !eval[bool](t, ctx, checkoutHeld) {
		t.Fatal("checkout released after a failure")
	}
	accessible(t, ctx, "failed")
	screenshot(t, ctx, "3-failed-checkout-held")

	// Try again; a passing result flips the page to Verified and frees checkout.
	eval[bool](t, ctx, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button:not(.sec)").click(), true`)
	state(t, ctx, "pending")
	created = env.Verifier.Created()
	if len(created) != 2 {
		t.Fatalf("second start: %d creates", len(created))
	}
	if resp := env.Deliver(hash, proxytest.Result(created[1].ID, created[1].ExternalID, nil)); resp.StatusCode != 200 {
		t.Fatalf("passing webhook: %d", resp.StatusCode)
	}
	if text := state(t, ctx, "verified"); !strings.Contains(text, "ID verified") {
		t.Fatalf("verified widget shows %q", text)
	}
	if !eval[bool](t, ctx, checkoutFree) {
		t.Fatal("checkout still held after verification")
	}
	accessible(t, ctx, "verified")
	screenshot(t, ctx, "4-verified-checkout-enabled")

	// The same customer on a new cart is recognised on load; the script
	// included twice renders one widget.
	sf.SetShopper(cart2, 42)
	if err := chromedp.Do(ctx, chromedp.Navigate(sf.URL+"/?twice=1")); err != nil {
		t.Fatal(err)
	}
	state(t, ctx, "verified")
	if n := eval[int](t, ctx, `document.querySelectorAll("[data-idgate-widget]").length`); n != 1 {
		t.Fatalf("%d widgets with the script loaded twice", n)
	}
	if !eval[bool](t, ctx, checkoutFree) {
		t.Fatal("recognised customer's checkout held")
	}
	if leaked := eval[[]string](t, ctx, `Object.keys(window).filter(k => /idgate/i.test(k))`); len(leaked) != 0 {
		t.Fatalf("globals leaked: %v", leaked)
	}
	screenshot(t, ctx, "5-customer-recognised-new-cart")

	// An expired customer token is refused; once the storefront issues a
	// fresh one, the widget fetches it and recovers without a reload.
	sf.SetTokenAge(time.Hour)
	if err := chromedp.Do(ctx, chromedp.Navigate(sf.URL+"/")); err != nil {
		t.Fatal(err)
	}
	state(t, ctx, "error")
	sf.SetTokenAge(0)
	state(t, ctx, "verified")

	// A guest with a fresh cart is not.
	sf.SetShopper("1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b", 0)
	if err := chromedp.Do(ctx, chromedp.Navigate(sf.URL+"/")); err != nil {
		t.Fatal(err)
	}
	state(t, ctx, "unverified")

	all := rec.list()
	if len(all) == 0 {
		t.Fatal("no requests recorded")
	}
	double := env.Doubles[hash].URL
	sawProxy := false
	for _, r := range all {
		for k := range r.Headers {
			if strings.EqualFold(k, "X-Auth-Token") {
				t.Errorf("request to %s carries X-Auth-Token", r.URL)
			}
		}
		if strings.HasPrefix(r.URL, double) || strings.Contains(r.URL, "api.bigcommerce.com") || strings.Contains(r.URL, "/stores/"+hash+"/v3/") {
			t.Errorf("the page called the Management API: %s", r.URL)
		}
		sawProxy = sawProxy || strings.HasPrefix(r.URL, env.URL+"/proxy/v1/")
	}
	if !sawProxy {
		t.Fatal("no proxy request recorded: the recorder is blind")
	}
}
