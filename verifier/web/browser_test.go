package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/axe"
	"github.com/idgate/idgate/internal/testkit/chromium"
)

// phoneUA is a phone's user agent, so the pages take the phone path (no
// QR handoff); desktop tabs keep Chromium's own.
const phoneUA = chromium.PhoneUA

// tab is one browser tab on the pages.
type tab struct {
	t     *testing.T
	ctx   context.Context
	phone bool
}

// newTab starts Chromium with flags (a fake camera, say) and emulates a
// phone (390×844, touch, phone user agent) or a 1280×800 computer.
func newTab(t *testing.T, phone bool, flags ...chromedp.ExecAllocatorOption) *tab {
	t.Helper()
	tb := &tab{t: t, ctx: chromium.New(t, flags...), phone: phone}
	if phone {
		tb.language("en-US")
	}
	tb.size(phone)
	return tb
}

// language sets the phone's Accept-Language and navigator.language.
func (tb *tab) language(lang string) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: phoneUA, AcceptLanguage: lang}); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

// size emulates the phone's or the computer's screen.
func (tb *tab) size(phone bool) {
	tb.t.Helper()
	if phone {
		tb.run(chromium.Phone())
	} else {
		tb.run(chromedp.EmulateViewport(1280, 800))
	}
}

// screen waits until the app shows screen name and returns its text.
func (tb *tab) screen(name string) string {
	tb.t.Helper()
	expr := fmt.Sprintf(`(() => { const m = document.querySelector("main"); return m && m.dataset.screen === %q ? m.innerText : ""; })()`, name)
	text, err := chromedp.Run(tb.ctx, chromedp.Poll[string](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	for i := 0; i < 3 && err != nil && strings.Contains(err.Error(), "Cannot find context"); i++ {
		// A navigation replaced the page under the poll: poll the new one.
		text, err = chromedp.Run(tb.ctx, chromedp.Poll[string](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	}
	if err != nil {
		got, _ := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`(document.querySelector("main")||{dataset:{}}).dataset.screen + ": " + document.body.innerText`))
		tb.t.Fatalf("page never showed %q (shows %q): %v", name, got, err)
	}
	return text
}

func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// screenshot writes the screen as it is under var/screenshots/flow/.
func (tb *tab) screenshot(name string) {
	tb.t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join(testkit.RepoRoot(tb.t), "var", "screenshots", "flow")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// shoot writes the screen at 390×844 and at 1280×800 under
// var/screenshots/flow/, for people to look at, and checks it with
// axe-core (WCAG A and AA) at both sizes.
func (tb *tab) shoot(name string) {
	tb.t.Helper()
	for _, phone := range []bool{true, false} {
		tb.size(phone)
		suffix := "1280x800"
		if phone {
			suffix = "390x844"
		}
		tb.screenshot(name + "-" + suffix)
		if vs := axe.Check(tb.t, tb.ctx, ""); len(vs) != 0 {
			tb.t.Errorf("%s at %s: %d accessibility violations:\n%v", name, suffix, len(vs), vs)
		}
	}
	tb.size(tb.phone)
}

func (tb *tab) open(url string) {
	tb.t.Helper()
	tb.run(chromedp.Navigate(url))
}

func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("page lacks %q; it reads:\n%s", w, text)
		}
	}
}

// Links that can no longer be used say why, without script.
func TestEndedLinks(t *testing.T) {
	e := start(t)
	tb := newTab(t, true)
	tb.open(e.URL + "/v/" + strings.Repeat("A", 43))
	contains(t, tb.screen("ended-unknown"), "Link not found", "ask the sender for a new one")
	tb.shoot("ended-unknown")

	c := e.create(`{"lifetime_days":1}`)
	e.clock.Advance(49 * time.Hour)
	tb.open(c.URL)
	contains(t, tb.screen("ended-expired"), "Link expired")
	tb.shoot("ended-expired")

	e.signIn()
	c = e.create(`{}`)
	e.call("POST", "/verification/cancel?id="+c.ID, "", 200, nil)
	tb.open(c.URL)
	contains(t, tb.screen("ended-canceled"), "Verification canceled")
	tb.shoot("ended-canceled")

	// Spanish, from Accept-Language: the server's pages and the app.
	tb.language("es-MX,es;q=0.9")
	tb.open(c.URL)
	contains(t, tb.screen("ended-canceled"), "Verificación cancelada")
	tb.open(e.create(`{}`).URL)
	contains(t, tb.screen("start"), "Verifica tu identidad", "Qué comprobaremos", "Empezar")
	tb.shoot("start-spanish")
}

// The consent screen lists the front-versus-barcode check when the
// verification asks for it (English and Spanish), and only then.
func TestConsentListsFrontCheck(t *testing.T) {
	e := start(t)
	tb := newTab(t, true)
	tb.open(e.create(`{"front_barcode_match":true}`).URL)
	contains(t, tb.screen("start"), "printed front of your license agrees with its barcode", "Only whether they agree is shared")
	tb.shoot("start-front-check")
	tb.open(e.create(`{}`).URL)
	if strings.Contains(tb.screen("start"), "printed front") {
		t.Error("the front check is listed though not requested")
	}
	tb.language("es-MX,es;q=0.9")
	tb.open(e.create(`{"front_barcode_match":true}`).URL)
	contains(t, tb.screen("start"), "frente impreso de tu licencia coincide con su código de barras")
	tb.shoot("start-front-check-spanish")
}
