package dashboard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/axe"
	"github.com/idgate/idgate/internal/testkit/chromium"
)

// tab is one Chromium tab on the dashboard, 1280×800 unless a shot
// switches to 390×844 for a moment.
type tab struct {
	t   *testing.T
	ctx context.Context
	e   *env
}

func newTab(t *testing.T, e *env) *tab {
	t.Helper()
	tb := &tab{t: t, ctx: chromium.New(t), e: e}
	tb.size(false)
	return tb
}

func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) size(phone bool) {
	tb.t.Helper()
	if phone {
		tb.run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	} else {
		tb.run(chromedp.EmulateViewport(1280, 800))
	}
}

func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func (tb *tab) text() string {
	return eval[string](tb, `document.body.innerText`)
}

// wait polls until js is true, failing with the page's text.
func (tb *tab) wait(js string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		tb.t.Fatalf("waiting for %s: %v\npage:\n%s", js, err, tb.text())
	}
}

// waitText waits until the page shows every one of want.
func (tb *tab) waitText(want ...string) {
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
	tb.run(chromedp.Navigate(tb.e.URL+"/dashboard"+fragment), chromedp.Reload())
	tb.wait(fmt.Sprintf(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText.includes(%q) && !document.querySelector(".busy"); })()`, heading))
}

// go follows a fragment inside the app (no reload) and waits for heading.
func (tb *tab) goTo(fragment, heading string) {
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
	tb.run(chromedp.Navigate(tb.e.URL + "/dashboard"))
	tb.wait(`!!document.querySelector("form.signin")`)
	tb.fill("E-mail", acct.email)
	tb.fill("Password", acct.password)
	tb.click("Sign in")
	tb.wait(`!!document.querySelector("nav a[aria-current=page]") && !document.querySelector(".busy")`)
}

// shoot saves the screen at 1280×800 and 390×844 under
// var/screenshots/dashboard/ and checks it with axe-core (WCAG A/AA) at
// both sizes: serious and critical violations fail the test, lesser ones
// are logged.
func (tb *tab) shoot(name string) {
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
		time.Sleep(150 * time.Millisecond) // let layout settle after the resize
		png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			tb.t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-"+suffix+".png"), png, 0o644); err != nil {
			tb.t.Fatal(err)
		}
		for _, v := range axe.Check(tb.t, tb.ctx, "") {
			if v.Impact == "serious" || v.Impact == "critical" {
				tb.t.Errorf("%s at %s: %v", name, suffix, v)
			} else {
				tb.t.Logf("%s at %s (%s, not failing): %v", name, suffix, v.Impact, v)
			}
		}
	}
	tb.size(false)
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("page lacks %q; it reads:\n%s", w, text)
		}
	}
}
