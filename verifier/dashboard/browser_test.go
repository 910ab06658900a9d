package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit/chromium"
)

// tab is the dashboard's tab (env_browser_test.go); these tests add
// their own helpers to it.
type tab = ptab

func eval[T any](tb *tab, js string) T {
	tb.T.Helper()
	return chromium.Eval[T](tb.Tab, js)
}

// newTab opens Chromium at 1280×800 on e's server, signed out (the
// helpers of env_browser_test.go drive it).
func newTab(t *testing.T, e *env) *tab {
	t.Helper()
	return newPTab(t, &server{t: t, URL: e.URL})
}

// sameOrigin fails when the page sent a request anywhere but its own
// origin (no third party: fonts, analytics, CDNs), data: and blob: URLs
// aside.
func (tb *tab) sameOrigin() {
	tb.T.Helper()
	for _, r := range tb.rec.Sent() {
		if !strings.HasPrefix(r.URL, tb.srv.URL+"/") && !strings.HasPrefix(r.URL, "data:") && !strings.HasPrefix(r.URL, "blob:") {
			tb.T.Errorf("the dashboard sent %s %s", r.Method, r.URL)
		}
	}
	if len(tb.rec.Sent()) == 0 {
		tb.T.Error("no request recorded: the recorder is not listening")
	}
}

// page opens a dashboard fragment as a fresh page load (a navigation that
// changes only the fragment would not reload) and waits for its heading.
func (tb *tab) page(fragment, heading string) {
	tb.T.Helper()
	tb.Run(chromedp.Navigate(tb.srv.URL+"/dashboard"+fragment), chromedp.Reload())
	cond := fmt.Sprintf(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText.includes(%q) && !document.querySelector(".busy"); })()`, heading)
	if _, err := chromium.Until[bool](tb.Tab, cond, 30*time.Second); err != nil {
		tb.T.Fatalf("page %s never showed %q: %v\npage:\n%s", fragment, heading, err, tb.Text())
	}
}

// goToPage follows a fragment inside the app (no reload) and waits for
// heading.
func (tb *tab) goToPage(fragment, heading string) {
	tb.T.Helper()
	eval[bool](tb, fmt.Sprintf(`(location.hash = %q, true)`, fragment))
	tb.Wait(fmt.Sprintf(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText.includes(%q) && !document.querySelector(".busy"); })()`, heading))
}

// click presses the button or link whose text is label.
func (tb *tab) click(label string) {
	tb.T.Helper()
	tb.Wait(fmt.Sprintf(`!![...document.querySelectorAll("button, a")].find(b => b.textContent.trim() === %q && !b.disabled && b.offsetParent !== null)`, label))
	eval[bool](tb, fmt.Sprintf(`(() => { [...document.querySelectorAll("button, a")].find(b => b.textContent.trim() === %q && !b.disabled && b.offsetParent !== null).click(); return true; })()`, label))
}

// fill types value into the control labelled label.
func (tb *tab) fill(label, value string) {
	tb.T.Helper()
	ok := eval[bool](tb, fmt.Sprintf(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.textContent.trim().startsWith(%q)); if (!l) return false;
		const c = document.getElementById(l.htmlFor); if (!c) return false;
		if (c.type === "checkbox") { c.checked = %q === "on"; } else { c.value = %q; }
		c.dispatchEvent(new Event("input", {bubbles: true})); c.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, label, value, value))
	if !ok {
		tb.T.Fatalf("no control labelled %q", label)
	}
}

// signIn fills the sign-in form as acct.
func (tb *tab) signIn(acct *account) {
	tb.T.Helper()
	tb.Run(chromedp.Navigate(tb.srv.URL + "/dashboard"))
	tb.Wait(`!!document.querySelector("form.signin")`)
	tb.fill("E-mail", acct.email)
	tb.fill("Password", acct.password)
	tb.click("Sign in")
	tb.Wait(`!!document.querySelector("nav a[aria-current=page]") && !document.querySelector(".busy")`)
}

var contains = chromium.Contains

// fitsPhone fails when the page is wider than a 390 px phone screen (a
// sideways scroll), naming the elements that stick out.
func (tb *tab) fitsPhone(name string) {
	tb.T.Helper()
	tb.Size(true)
	defer tb.Size(false)
	out := eval[string](tb, `(() => { const w = document.documentElement.clientWidth; if (document.documentElement.scrollWidth <= w) return "";
		return [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > w + 1).slice(0, 5)
			.map(e => e.tagName + "." + e.className + " «" + e.textContent.slice(0, 30) + "»").join(", "); })()`)
	if out != "" {
		tb.T.Errorf("%s is wider than a 390 px phone: %s", name, out)
	}
}
