package widget_test

import (
	"bytes"
	"fmt"
	pngpkg "image/png"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/qr/qrtest"
	"github.com/idgate/idgate/internal/testkit/axe"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	"github.com/idgate/idgate/proxy/proxytest"
)

// state waits until the widget shows want and returns its text.
func state(tb *chromium.Tab, want string) string {
	tb.T.Helper()
	expr := fmt.Sprintf(`(() => { const h = document.querySelector("[data-idgate-widget]");
		return h && h.getAttribute("data-state") === %q ? h.shadowRoot.textContent : ""; })()`, want)
	text, err := chromium.Until[string](tb, expr, 15*time.Second)
	if err != nil {
		got, _ := chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`(document.querySelector("[data-idgate-widget]")||{getAttribute:()=>"none"}).getAttribute("data-state")`))
		tb.T.Fatalf("widget never reached %q (is %q): %v", want, got, err)
	}
	return text
}

// accessible fails on any WCAG A/AA violation inside the widget.
func accessible(tb *chromium.Tab, state string) {
	tb.T.Helper()
	if vs := axe.Check(tb.T, tb.Ctx, "[data-idgate-widget]"); len(vs) != 0 {
		tb.T.Fatalf("%s widget: %d accessibility violations:\n%v", state, len(vs), vs)
	}
}

const checkoutHeld = `[".cart-actions .button--primary", ".previewCartAction-checkout .button", ".cart-additionalCheckoutButtons"]
	.every(s => { const e = document.querySelector(s); return e.getAttribute("aria-disabled") === "true" && getComputedStyle(e).pointerEvents === "none"; })`

const checkoutFree = `[".cart-actions .button--primary", ".previewCartAction-checkout .button", ".cart-additionalCheckoutButtons"]
	.every(s => { const e = document.querySelector(s); return !e.hasAttribute("aria-disabled") && getComputedStyle(e).pointerEvents !== "none"; })`

const (
	cart1     = "5c7d3b8e-2f41-4c6a-9d0e-1a2b3c4d5e6f"
	cart2     = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	guestCart = "1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b"
	laterCart = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
)

// hiddenWidget: the widget is on the page and shows nothing.
const hiddenWidget = `(() => { const h = document.querySelector("[data-idgate-widget]"); return !!h && getComputedStyle(h).display === "none"; })()`

// The whole shopper journey in one browser: held checkout, a failed then a
// passing verification arriving by signed webhook, the page updating
// without a reload, and the customer recognised on a later cart.
func TestWidgetInChromium(t *testing.T) {
	tb := &chromium.Tab{T: t, Ctx: chromium.New(t), Shots: "widget"} // Chromium's own 1000×800 window
	ln, origin := proxytest.ListenStorefront(t)
	ln2, origin2 := proxytest.ListenStorefront(t)
	hash := "idgatetest1"
	// Orders of $50 or more need verification: the carts below are.
	env := proxytest.Start(t, proxytest.Options{Origins: []string{origin, origin2}, HoldCheckout: true, GuestToAccount: true,
		Stores: []string{hash, "notlinked1"}, Unlinked: []string{"notlinked1"}, Triggers: proxy.Triggers{MinTotalCents: 5000}})
	for _, c := range []string{cart1, cart2, guestCart, laterCart} {
		env.Doubles[hash].AddCart(bigcommercetest.Cart{ID: c, Amount: "60"})
	}
	sf := proxytest.ServeStorefront(t, ln, env, hash)
	sf.SetShopper(cart1, 42)
	rec := chromium.Record(t, tb.Ctx)

	// Unverified: button shown, checkout held.
	tb.Open(sf.URL + "/")
	if text := state(tb, "unverified"); !strings.Contains(text, "Verify ID") {
		t.Fatalf("unverified widget shows %q", text)
	}
	if !chromium.Eval[bool](tb, checkoutHeld) {
		t.Fatal("checkout buttons not held")
	}
	if chromium.Eval[string](tb, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button").getAttribute("type")`) != "button" {
		t.Fatal("Verify ID is not a real button")
	}
	// A click on a held button is cancelled (dispatchEvent is false), so
	// the link is not followed.
	if chromium.Eval[bool](tb, `document.querySelector(".cart-actions .button--primary").dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}))`) {
		t.Fatal("a click on the held checkout button was not cancelled")
	}
	accessible(tb, "unverified")
	tb.Screenshot("1-unverified-checkout-held")

	// Verify ID, from the keyboard: the proxy creates the verification.
	chromium.Eval[bool](tb, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button").focus(), true`)
	tb.Run(chromedp.KeyEvent("\r"))
	if text := state(tb, "pending"); !strings.Contains(text, "Open the verification") {
		t.Fatalf("pending widget shows %q", text)
	}
	created := env.Verifier.Created()
	if len(created) != 1 || created[0].Origin != origin {
		t.Fatalf("verifier creates: %+v", created)
	}
	// The QR code the proxy drew, shown on a desktop, scans to the link.
	png, err := chromedp.Run(tb.Ctx, chromedp.Screenshot(chromedp.JSPath(`document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("svg[data-idgate-qr]")`)))
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
	// Polls that bring nothing new leave the widget as it is: the link
	// someone is about to click or has focused stays (a redraw on every
	// poll once took it from under a test's click, and would re-read the
	// live region aloud).
	const polls = `performance.getEntriesByType("resource").filter(e => e.name.includes("/status")).length`
	const link = `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("a")`
	before := chromium.Eval[int](tb, polls)
	chromium.Eval[bool](tb, `(`+link+`.dataset.kept = "1", `+link+`.focus(), true)`)
	if _, err := chromium.Until[bool](tb, fmt.Sprintf(`%s >= %d`, polls, before+2), 15*time.Second); err != nil {
		t.Fatalf("the pending widget did not poll twice: %v", err)
	}
	if !chromium.Eval[bool](tb, link+`.dataset.kept === "1" && document.querySelector("[data-idgate-widget]").shadowRoot.activeElement === `+link) {
		t.Fatal("a poll that changed nothing redrew the pending widget: the link and its focus are gone")
	}
	accessible(tb, "pending")
	tb.Screenshot("2-pending-link-and-qr")

	// A failing result keeps checkout held, with a message.
	resp := env.Deliver(hash, proxytest.Result(created[0].ID, created[0].ExternalID, map[string]any{"face_match_score": "no_match"}))
	if resp.StatusCode != 200 {
		t.Fatalf("failing webhook: %d", resp.StatusCode)
	}
	if text := state(tb, "failed"); !strings.Contains(text, "could not verify") {
		t.Fatalf("failed widget shows %q", text)
	}
	if !chromium.Eval[bool](tb, checkoutHeld) {
		t.Fatal("checkout released after a failure")
	}
	accessible(tb, "failed")
	tb.Screenshot("3-failed-checkout-held")

	// Try again; a passing result flips the page to Verified and frees checkout.
	chromium.Eval[bool](tb, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button:not(.sec)").click(), true`)
	state(tb, "pending")
	created = env.Verifier.Created()
	if len(created) != 2 {
		t.Fatalf("second start: %d creates", len(created))
	}
	if resp := env.Deliver(hash, proxytest.Result(created[1].ID, created[1].ExternalID, nil)); resp.StatusCode != 200 {
		t.Fatalf("passing webhook: %d", resp.StatusCode)
	}
	if text := state(tb, "verified"); !strings.Contains(text, "ID verified") {
		t.Fatalf("verified widget shows %q", text)
	}
	if !chromium.Eval[bool](tb, checkoutFree) {
		t.Fatal("checkout still held after verification")
	}
	accessible(tb, "verified")
	tb.Screenshot("4-verified-checkout-enabled")

	// The same customer on a new cart is recognised on load; the script
	// included twice renders one widget.
	sf.SetShopper(cart2, 42)
	tb.Open(sf.URL + "/?twice=1")
	state(tb, "verified")
	if n := chromium.Eval[int](tb, `document.querySelectorAll("[data-idgate-widget]").length`); n != 1 {
		t.Fatalf("%d widgets with the script loaded twice", n)
	}
	if !chromium.Eval[bool](tb, checkoutFree) {
		t.Fatal("recognised customer's checkout held")
	}
	if leaked := chromium.Eval[[]string](tb, `Object.keys(window).filter(k => /idgate/i.test(k))`); len(leaked) != 0 {
		t.Fatalf("globals leaked: %v", leaked)
	}
	tb.Screenshot("5-customer-recognised-new-cart")

	// An expired customer token is refused; once the storefront issues a
	// fresh one, the widget fetches it and recovers without a reload.
	sf.SetTokenAge(time.Hour)
	tb.Open(sf.URL + "/")
	state(tb, "error")
	sf.SetTokenAge(0)
	state(tb, "verified")

	// A guest with a fresh cart is not.
	sf.SetShopper(guestCart, 0)
	tb.Open(sf.URL + "/")
	state(tb, "unverified")

	// The guest verifies, then makes an account on a later visit: the
	// widget remembered the guest's cart and the account takes the
	// verification (the store carries guests' verifications), so the new
	// customer's new cart is verified on load and the cart is forgotten.
	guestID := proxytest.NewRequestID()
	if resp := env.Deliver(hash, proxytest.Result(guestID, env.Ref(hash, proxy.Shopper{CartID: guestCart}), nil)); resp.StatusCode != 200 {
		t.Fatalf("guest's passing webhook: %d", resp.StatusCode)
	}
	state(tb, "verified")
	sf.SetShopper(laterCart, 43)
	tb.Open(sf.URL + "/")
	state(tb, "verified")
	if mf := env.Doubles[hash].Metafields("customer", "43"); len(mf) != 1 || !strings.Contains(mf[0].Value, guestID) {
		t.Fatalf("customer 43's records %+v, want the guest's verification %s", mf, guestID)
	}
	if left := chromium.Eval[int](tb, `Object.keys(localStorage).filter(k => k.startsWith("idgate:")).length`); left != 0 {
		t.Fatalf("%d remembered carts left after carrying", left)
	}
	tb.Screenshot("6-guest-verification-carried-to-account")

	// A cart under the store's $50 is not asked to verify: nothing shown,
	// checkout free.
	small := "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d"
	env.Doubles[hash].AddCart(bigcommercetest.Cart{ID: small, Amount: "49.99"})
	sf.SetShopper(small, 0)
	tb.Open(sf.URL + "/")
	tb.Wait(hiddenWidget)
	if !chromium.Eval[bool](tb, checkoutFree) {
		t.Fatal("a cart under the trigger's total is held")
	}

	all := rec.Sent()
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

	// A store that installed the app but is not linked to a verifier
	// account yet: the widget shows nothing and holds nothing.
	sf2 := proxytest.ServeStorefront(t, ln2, env, "notlinked1")
	sf2.SetShopper(cart1, 0)
	tb.Open(sf2.URL + "/")
	tb.Wait(hiddenWidget)
	if !chromium.Eval[bool](tb, checkoutFree) {
		t.Fatal("an unlinked store's checkout is held")
	}
}
