package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit/chromium"
)

// tab is the shared harness's tab (env_browser_test.go); these tests add
// their own helpers to it.
type tab = ptab

func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	return evalJS[T](tb, js)
}

// newTab opens Chromium at 1280×800 on e's server, signed out (the
// helpers of env_browser_test.go drive it).
func newTab(t *testing.T, e *env) *tab {
	t.Helper()
	tb := &tab{t: t, ctx: chromium.New(t), srv: &server{t: t, URL: e.URL}}
	tb.record()
	tb.size(false)
	return tb
}

// sameOrigin fails when the page sent a request anywhere but its own
// origin (no third party: fonts, analytics, CDNs), data: and blob: URLs
// aside.
func (tb *tab) sameOrigin() {
	tb.t.Helper()
	for _, r := range tb.sent() {
		if !strings.HasPrefix(r.URL, tb.srv.URL+"/") && !strings.HasPrefix(r.URL, "data:") && !strings.HasPrefix(r.URL, "blob:") {
			tb.t.Errorf("the dashboard sent %s %s", r.Method, r.URL)
		}
	}
	if len(tb.sent()) == 0 {
		tb.t.Error("no request recorded: the recorder is not listening")
	}
}

// waitTexts waits until the page shows every one of want.
func (tb *tab) waitTexts(want ...string) {
	tb.t.Helper()
	var conds []string
	for _, w := range want {
		conds = append(conds, fmt.Sprintf("document.body.innerText.includes(%q)", w))
	}
	tb.wait(strings.Join(conds, " && "))
}

// page opens a dashboard fragment as a fresh page load (a navigation that
// changes only the fragment would not reload) and waits for its heading.
func (tb *tab) page(fragment, heading string) {
	tb.t.Helper()
	tb.run(chromedp.Navigate(tb.srv.URL+"/dashboard"+fragment), chromedp.Reload())
	cond := fmt.Sprintf(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText.includes(%q) && !document.querySelector(".busy"); })()`, heading)
	_, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
	for i := 0; i < 3 && err != nil && strings.Contains(err.Error(), "Cannot find context"); i++ {
		// The load replaced the page under the poll: poll the new one.
		_, err = chromedp.Run(tb.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
	}
	if err != nil {
		tb.t.Fatalf("page %s never showed %q: %v\npage:\n%s", fragment, heading, err, tb.text())
	}
}

// goToPage follows a fragment inside the app (no reload) and waits for
// heading.
func (tb *tab) goToPage(fragment, heading string) {
	tb.t.Helper()
	eval[bool](tb, fmt.Sprintf(`(location.hash = %q, true)`, fragment))
	tb.wait(fmt.Sprintf(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText.includes(%q) && !document.querySelector(".busy"); })()`, heading))
}

// click presses the button or link whose text is label.
func (tb *tab) click(label string) {
	tb.t.Helper()
	tb.wait(fmt.Sprintf(`!![...document.querySelectorAll("button, a")].find(b => b.textContent.trim() === %q && !b.disabled && b.offsetParent !== null)`, label))
	eval[bool](tb, fmt.Sprintf(`(() => { [...document.querySelectorAll("button, a")].find(b => b.textContent.trim() === %q && !b.disabled && b.offsetParent !== null).click(); return true; })()`, label))
}

// fill types value into the control labelled label.
func (tb *tab) fill(label, value string) {
	tb.t.Helper()
	ok := eval[bool](tb, fmt.Sprintf(`(() => { const l = [...document.querySelectorAll("label")].find(l => l.textContent.trim().startsWith(%q)); if (!l) return false;
		const c = document.getElementById(l.htmlFor); if (!c) return false;
		if (c.type === "checkbox") { c.checked = %q === "on"; } else { c.value = %q; }
		c.dispatchEvent(new Event("input", {bubbles: true})); c.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, label, value, value))
	if !ok {
		tb.t.Fatalf("no control labelled %q", label)
	}
}

// signIn fills the sign-in form as acct.
func (tb *tab) signIn(acct *account) {
	tb.t.Helper()
	tb.run(chromedp.Navigate(tb.srv.URL + "/dashboard"))
	tb.wait(`!!document.querySelector("form.signin")`)
	tb.fill("E-mail", acct.email)
	tb.fill("Password", acct.password)
	tb.click("Sign in")
	tb.wait(`!!document.querySelector("nav a[aria-current=page]") && !document.querySelector(".busy")`)
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("page lacks %q; it reads:\n%s", w, text)
		}
	}
}

// fitsPhone fails when the page is wider than a 390 px phone screen (a
// sideways scroll), naming the elements that stick out.
func (tb *tab) fitsPhone(name string) {
	tb.t.Helper()
	tb.size(true)
	defer tb.size(false)
	out := eval[string](tb, `(() => { const w = document.documentElement.clientWidth; if (document.documentElement.scrollWidth <= w) return "";
		return [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > w + 1).slice(0, 5)
			.map(e => e.tagName + "." + e.className + " «" + e.textContent.slice(0, 30) + "»").join(", "); })()`)
	if out != "" {
		tb.t.Errorf("%s is wider than a 390 px phone: %s", name, out)
	}
}
