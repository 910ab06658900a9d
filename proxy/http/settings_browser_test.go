package http_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/proxy/bigcommerce/bigcommercetest"
	proxyhttp "github.com/idgate/idgate/proxy/http"
	"github.com/idgate/idgate/rulesets"
)

// serveFrame serves on ln a page that frames src, as the control panel
// frames the app; it returns the page's URL.
func serveFrame(t *testing.T, ln net.Listener, src string) string {
	t.Helper()
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>control panel</title><iframe title="app" src="%s" width="1000" height="700"></iframe>`, src)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String() + "/"
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// childFrameURL is the URL the top page's first frame ended on: the app's,
// or Chromium's error page when frame-ancestors refused it.
func childFrameURL(tb *chromium.Tab) string {
	tb.T.Helper()
	var got string
	for range 50 {
		res, err := chromedp.Call(tb.Ctx, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			tb.T.Fatal(err)
		}
		if res.FrameTree != nil && len(res.FrameTree.ChildFrames) > 0 {
			got = res.FrameTree.ChildFrames[0].Frame.URL
		}
		if got != "" && got != "about:blank" {
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
	return got
}

// The settings page in Chromium: framed by the store's control panel and
// by no other origin; then filled in and saved with the keyboard alone
// (Tab, arrows, Space, Enter), focus always visible, with no WCAG A/AA
// violation at the control panel's widths.
func TestSettingsPageInChromium(t *testing.T) {
	tb := &chromium.Tab{T: t, Ctx: chromium.New(t), Shots: "app-settings"}
	// The control panel's origin must be known before the proxy starts:
	// reserve it, then serve the frame on it once the load URL exists.
	cpLn := listen(t)
	cpOrigin := "http://" + cpLn.Addr().String()
	w := newAppWorldFramedBy(t, 1, cpOrigin)
	w.mustInstall(t, 0, "storea1")
	// Each opening is the control panel's new payload: one is taken once.
	load := func() string {
		return w.proxies[0] + proxyhttp.LoadCallbackPath + "?signed_payload_jwt=" + url.QueryEscape(w.cp.SignedPayload("storea1", installer))
	}
	tb.Open(serveFrame(t, cpLn, load()))
	if got := childFrameURL(tb); !strings.HasPrefix(got, w.proxies[0]+proxyhttp.LoadCallbackPath) {
		t.Fatalf("the control panel's frame shows %q, want the app", got)
	}
	tb.Screenshot("1-in-the-control-panel")
	tb.Open(serveFrame(t, listen(t), load()))
	if got := childFrameURL(tb); !strings.HasPrefix(got, "chrome-error://") {
		t.Fatalf("another origin framed the settings page: %q", got)
	}

	// Keyboard only, on the page itself.
	tb.Run(chromedp.EmulateViewport(1024, 768))
	tb.Open(load())
	tb.WaitText("ID verification", "link your idgate account")
	focused := func() string {
		return chromium.Eval[string](tb, `(() => { const e = document.activeElement;
			if (getComputedStyle(e).outlineStyle === "none") return "no visible focus on " + (e.id || e.name || e.tagName);
			return e.type === "radio" || e.type === "checkbox" ? e.name + "=" + e.value : e.id || e.getAttribute("aria-label") || e.tagName; })()`)
	}
	key := func(keys string, want string) {
		t.Helper()
		tb.Run(chromedp.KeyEvent(keys))
		if got := focused(); got != want {
			t.Fatalf("after %q focus is on %q, want %q", keys, got, want)
		}
	}
	key("\t", "BUTTON") // Orders, first: the way to the orders page
	// Link the idgate account (a real verifier on loopback): sign in, the
	// test key, "Create the integration key".
	key("\t", "email")
	tb.Run(chromedp.KeyEvent(merchantEmail))
	key("\t", "password")
	tb.Run(chromedp.KeyEvent(merchantPassword))
	key("\t", "key_mode=live")
	key(kb.ArrowUp, "key_mode=test")
	key("\t", "BUTTON")
	tb.ShootHere("2-link-1024")
	tb.Run(chromedp.KeyEvent("\r"))
	if _, err := chromium.Until[bool](tb, `document.body.innerText.includes("Linked.")`, 10*time.Second); err != nil {
		t.Fatalf("not linked: %.300s", tb.Text())
	}
	key("\t", "BUTTON") // Orders
	key("\t", "email")
	key("\t", "password")
	key("\t", "key_mode=test")
	key("\t", "BUTTON") // Make a new integration key
	key("\t", "require_authentic=1")
	key("\t", "min_face_match=likely_match")
	key(kb.ArrowUp, "min_face_match=definite_match")
	key("\t", "min_age=0")
	key(kb.ArrowDown+kb.ArrowDown, "min_age=21")
	key("\t", "hold_checkout=1")
	key("\t", "order_guard=1")
	tb.Run(chromedp.KeyEvent(" "))
	key("\t", "min_total")
	tb.Run(chromedp.KeyEvent("50"))
	key("\t", "ship_to_countries")
	key("\t", "ship_to_states")
	tb.Run(chromedp.KeyEvent("Texas"))
	key("\t", "release_status=0")
	key(kb.ArrowDown, "release_status=11")
	key("\t", "storefronts")
	key("\t", "reuse_days")
	key(kb.ArrowDown, "reuse_days")
	key("\t", "guest_to_account=1")
	tb.Run(chromedp.KeyEvent(" "))
	key("\t", "test_mode=1") // on: the test key turned it on
	key("\t", "BUTTON")
	tb.ShootHere("3-filled-1024")
	tb.Run(chromedp.KeyEvent("\r"))
	if _, err := chromium.Until[bool](tb, `document.body.innerText.includes("Settings saved")`, 10*time.Second); err != nil {
		t.Fatalf("not saved: %.300s", tb.Text())
	}
	st, err := w.registry.Store(context.Background(), "storea1")
	if err != nil {
		t.Fatal(err)
	}
	want := rulesets.Ruleset{RequireAuthentic: true, MinFaceMatch: rulesets.TierDefiniteMatch, RequireOver21: true}
	if !st.Linked() || st.Ruleset != want || !st.OrderGuard || st.HoldCheckout || !st.TestMode ||
		st.Triggers.MinTotalCents != 5000 || len(st.Triggers.ShipToStates) != 1 || st.VerifierAccountEmail != merchantEmail ||
		st.ApprovalTTL != 29*24*time.Hour || st.ReleaseStatus != 11 || !st.GuestToAccount {
		t.Fatalf("saved %+v", st)
	}
	tb.Run(chromedp.EmulateViewport(768, 1024))
	tb.ShootHere("4-saved-768")
	if text := tb.Text(); strings.Contains(text, string(st.WebhookSecret)) || strings.Contains(text, merchantPassword) || strings.Contains(text, bigcommercetest.AppClientSecret) {
		t.Fatal("the page shows a secret")
	}

	// The orders page, from the saved page, by keyboard: every state
	// shown, one order approved by hand; axe clean at 768.
	seedOrders(t, w, "storea1")
	chromium.Eval[bool](tb, `(document.querySelector("nav button").focus(), true)`)
	tb.Run(chromedp.KeyEvent("\r"))
	tb.WaitText("ID verification: orders", "Waiting", "Passed", "Failed", "Approved by hand")
	key("\t", "BUTTON") // Settings
	key("\t", "BUTTON") // Refresh orders
	for _, want := range []string{"Approve order 205", "Reject order 205", "Approve order 204", "Reject order 204", "Verification link for order 204", "Approve order 203"} {
		key("\t", want)
	}
	tb.ShootHere("5-orders-768")
	tb.Run(chromedp.KeyEvent("\r"))
	if _, err := chromium.Until[bool](tb, `document.body.innerText.includes("Order 203 approved")`, 10*time.Second); err != nil {
		t.Fatalf("not approved: %.300s", tb.Text())
	}
	if o, _ := w.doubles["storea1"].Order(203); o.StatusID != 11 {
		t.Errorf("order 203 approved in the browser is in status %d, want 11 (chosen above; it was held from 1)", o.StatusID)
	}

	// Waiting 201's verification link, by keyboard: shown in a field to
	// copy (the page runs no script); axe clean.
	chromium.Eval[bool](tb, `(document.querySelector('button[aria-label="Verification link for order 201"]').focus(), true)`)
	tb.Run(chromedp.KeyEvent("\r"))
	tb.WaitText("Verification link for order #201 (a test link")
	if link := chromium.Eval[string](tb, `document.getElementById("shopper-link").value`); !strings.HasPrefix(link, w.verifier.URL+"/") {
		t.Errorf("the link field holds %q", link)
	}
	tb.ShootHere("6-order-link-768")
}
