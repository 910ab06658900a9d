package widget_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/proxy"
	"github.com/idgate/idgate/proxy/bigcommerce"
	"github.com/idgate/idgate/proxy/proxytest"
)

// widgetStrings is the widget's string table, by language and key.
func widgetStrings(t *testing.T) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile("src/strings.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab map[string]map[string]string
	if err := json.Unmarshal(b, &tab); err != nil {
		t.Fatal(err)
	}
	return tab
}

// The widget's panel with the most in it in every language at 360×640 on a
// computer's user agent (a phone would leave for the link): pending on the
// order confirmation page of an order held for the verification (the
// order-held note, message, button, link, QR code, copy button; the note
// is longer than the cart page's checkout hold note in every language, and
// the same kind of paragraph), so also that the note is said there and the
// checkout hold note is not. Nothing wider than the storefront's window or
// clipped, lang and dir on the widget (right to left in Arabic, mirrored),
// axe clean. Screenshots: var/screenshots/widget/lang-*.png.
func TestWidgetLanguagesAt360InChromium(t *testing.T) {
	tb := &chromium.Tab{T: t, Ctx: chromium.New(t), Shots: "widget"}
	tb.Run(chromedp.EmulateViewport(360, 640))
	ln, origin := proxytest.ListenStorefront(t)
	env := proxytest.Start(t, proxytest.Options{Origins: []string{origin}, HoldCheckout: true, OrderGuard: true})
	hash := "idgatetest1"
	sf := proxytest.ServeStorefront(t, ln, env, hash)
	// As `idgate store install --order-guard` does: the footer script, the
	// confirmation page's order script and the order webhooks.
	bc, err := bigcommerce.New(bigcommerce.Config{StoreHash: hash, Token: env.Stores[hash].AccessToken, BaseURL: env.Doubles[hash].BaseURL(), LoopbackPlatform: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := proxy.Install(context.Background(), bc, env.Stores[hash], env.URL, true); err != nil {
		t.Fatal(err)
	}
	words := widgetStrings(t)
	langs := []string{"en", "ar", "de", "es", "fr", "ko", "pt", "tl", "vi", "zh"}
	for i, lang := range langs {
		sf.SetShopper(fmt.Sprintf("5c7d3b8e-2f41-4c6a-9d0e-1a2b3c4d5e%02d", i), 0)
		order := sf.PlaceOrder(context.Background())
		added, err := chromedp.Call(tb.Ctx, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(`window.idgateWidgetConfig = {lang: %q}`, lang)})
		if err != nil {
			t.Fatal(err)
		}
		tb.Open(fmt.Sprintf("%s/checkout/order-confirmation?order=%d", sf.URL, order))
		if text := state(tb, "unverified"); !strings.Contains(text, words[lang]["orderHeld"]) || strings.Contains(text, words[lang]["hold"]) {
			t.Errorf("%s: the confirmation page of a held order shows %q, want the order-held note and no checkout note", lang, text)
		}
		chromium.Eval[bool](tb, `document.querySelector("[data-idgate-widget]").shadowRoot.querySelector("button").click(), true`)
		if text := state(tb, "pending"); !strings.Contains(text, words[lang]["orderHeld"]) {
			t.Errorf("%s: pending on the confirmation page shows %q, without the order-held note", lang, text)
		}
		type fit struct {
			Lang, Dir                      string
			ScrollWidth, InnerWidth        int
			Out                            []string
			ButtonRight, BoxRight, BoxLeft float64
		}
		f := chromium.Eval[fit](tb, `(() => {
			const host = document.querySelector("[data-idgate-widget]"), out = [], w = innerWidth;
			for (const e of host.shadowRoot.querySelectorAll("*")) {
				const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
				if (r.width === 0 || e.closest("svg") && !e.matches("svg")) continue;
				if (r.left < -1 || r.right > w + 1) out.push(e.tagName + " sticks out: " + Math.round(r.left) + ".." + Math.round(r.right));
				else if (e.scrollWidth > e.clientWidth + 1 && /hidden|clip|auto|scroll/.test(cs.overflowX)) out.push(e.tagName + " clips its text");
			}
			const box = host.shadowRoot.querySelector(".box").getBoundingClientRect();
			const b = host.shadowRoot.querySelector("button").getBoundingClientRect();
			return {Lang: host.lang, Dir: getComputedStyle(host).direction, ScrollWidth: document.scrollingElement.scrollWidth, InnerWidth: w, Out: out,
				ButtonRight: b.right, BoxRight: box.right, BoxLeft: box.left};
		})()`)
		wantDir := "ltr"
		if lang == "ar" {
			wantDir = "rtl"
		}
		if f.Lang != lang || f.Dir != wantDir {
			t.Errorf("%s: widget lang=%q direction %q, want %q %q", lang, f.Lang, f.Dir, lang, wantDir)
		}
		if f.ScrollWidth > f.InnerWidth {
			t.Errorf("%s: the storefront is %d px wide in a %d px window", lang, f.ScrollWidth, f.InnerWidth)
		}
		for _, o := range f.Out {
			t.Errorf("%s: %s", lang, o)
		}
		// Mirrored: the first button sits at the box's right in Arabic.
		if rtl := f.BoxRight-f.ButtonRight < 2; rtl != (lang == "ar") {
			t.Errorf("%s: the button ends %.0f px from the box's right edge (box %.0f..%.0f)", lang, f.BoxRight-f.ButtonRight, f.BoxLeft, f.BoxRight)
		}
		accessible(tb, "pending "+lang)
		tb.Screenshot("lang-pending-" + lang + "-360x640")
		if _, err := chromedp.Call(tb.Ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: added.Identifier}); err != nil {
			t.Fatal(err)
		}
	}
}
