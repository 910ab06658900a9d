package web_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
)

// tab is one browser tab on the pages; its screenshots go to
// var/screenshots/flow/.
type tab struct{ *chromium.Tab }

// newTab starts Chromium with flags (a fake camera, say) and emulates a
// phone (390×844, touch, phone user agent) or a 1280×800 computer.
func newTab(t *testing.T, phone bool, flags ...chromedp.ExecAllocatorOption) *tab {
	t.Helper()
	ct := chromium.NewTab(t, "flow", phone, flags...)
	ct.Timeout = 60 * time.Second // liveness is judged while the page waits
	tb := &tab{Tab: ct}
	if phone {
		tb.language("en-US")
	}
	return tb
}

// language sets the phone's Accept-Language and navigator.language, with
// a phone's user agent so the pages take the phone path (no QR handoff);
// desktop tabs keep Chromium's own.
func (tb *tab) language(lang string) {
	tb.T.Helper()
	if _, err := chromedp.Call(tb.Ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: chromium.PhoneUA, AcceptLanguage: lang}); err != nil {
		tb.T.Fatal(err)
	}
}

// screen waits until the app shows screen name and returns its text.
func (tb *tab) screen(name string) string {
	tb.T.Helper()
	expr := fmt.Sprintf(`(() => { const m = document.querySelector("main"); return m && m.dataset.screen === %q ? m.innerText : ""; })()`, name)
	text, err := chromium.Until[string](tb.Tab, expr, 90*time.Second)
	if err != nil {
		got := eval[string](tb, `(document.querySelector("main")||{dataset:{}}).dataset.screen + ": " + document.body.innerText`)
		tb.T.Fatalf("page never showed %q (shows %q): %v", name, got, err)
	}
	return text
}

func eval[T any](tb *tab, js string) T {
	tb.T.Helper()
	return chromium.Eval[T](tb.Tab, js)
}

var contains = chromium.Contains

// Links that can no longer be used say why, without script.
func TestEndedLinks(t *testing.T) {
	e := start(t)
	tb := newTab(t, true)
	tb.Open(e.URL + "/v/" + strings.Repeat("A", 43))
	contains(t, tb.screen("ended-unknown"), "Link not found", "ask the sender for a new one")
	tb.Shoot("ended-unknown")

	c := e.create(`{"lifetime_days":1}`)
	e.clock.Advance(49 * time.Hour)
	tb.Open(c.URL)
	contains(t, tb.screen("ended-expired"), "Link expired")
	tb.Shoot("ended-expired")

	e.signIn()
	c = e.create(`{}`)
	e.call("POST", "/verification/cancel?id="+c.ID, "", 200, nil)
	tb.Open(c.URL)
	contains(t, tb.screen("ended-canceled"), "Verification canceled")
	tb.Shoot("ended-canceled")

	// Spanish, from Accept-Language: the server's pages and the app.
	tb.language("es-MX,es;q=0.9")
	tb.Open(c.URL)
	contains(t, tb.screen("ended-canceled"), "Verificación cancelada")
	tb.Open(e.create(`{}`).URL)
	contains(t, tb.screen("start"), "Verifica tu identidad", "Qué comprobaremos", "Empezar")
	tb.Shoot("start-spanish")
}

// The consent screen lists the front-versus-barcode check when the
// verification asks for it (English and Spanish), and only then.
func TestConsentListsFrontCheck(t *testing.T) {
	testkit.TakesTurns(t, 2)
	e := start(t)
	tb := newTab(t, true)
	tb.Open(e.create(`{"front_barcode_match":true}`).URL)
	contains(t, tb.screen("start"), "printed front of your license agrees with its barcode", "Only whether they agree is shared")
	tb.Shoot("start-front-check")
	tb.Open(e.create(`{}`).URL)
	if strings.Contains(tb.screen("start"), "printed front") {
		t.Error("the front check is listed though not requested")
	}
	tb.language("es-MX,es;q=0.9")
	tb.Open(e.create(`{"front_barcode_match":true}`).URL)
	contains(t, tb.screen("start"), "frente impreso de tu licencia coincide con su código de barras")
	tb.Shoot("start-front-check-spanish")

	// The requester's identity, folded in here rather than a
	// test of its own: the account names itself, and its next link's
	// start page on a 360×640 phone shows the name in the heading, the
	// logo from our origin, the accent colour, and the footer's links,
	// axe-clean and within the screen.
	e.call("PATCH", "/me", `{"branding":{"display_name":"Acme Wines","accent_color":"#0b6e4f","support_contact":"help@acme.example",
		"privacy_policy_url":"https://acme.example/privacy"}}`, 200, nil)
	e.putLogo(brandLogo(t))
	phone := walkTab(t, 360, 640, "en-US")
	phone.Open(e.create(`{}`).URL)
	contains(t, phone.screen("start"), "Acme Wines asks you to verify your identity")
	contains(t, eval[string](phone, `document.querySelector("header.who").textContent + " " + document.querySelector("footer.foot").textContent`),
		"Acme Wines", "Acme Wines's privacy policy", "Your photos are deleted once checked", "Contact Acme Wines")
	if !eval[bool](phone, `(() => { const i = document.querySelector("header.who img.logo"); return !!i && i.complete && i.naturalWidth === 120; })()`) ||
		eval[string](phone, `getComputedStyle(document.querySelector(".actions button")).backgroundColor`) != "rgb(11, 110, 79)" {
		t.Errorf("the branded start page: logo loaded %v, button colour %s", eval[bool](phone, `!!document.querySelector("header.who img.logo")?.naturalWidth`),
			eval[string](phone, `getComputedStyle(document.querySelector(".actions button")).backgroundColor`))
	}
	phone.look("start-branded-en-360x640")
}

// brandLogo is a 120×40 PNG: a green bar with a white square on a
// transparent ground.
func brandLogo(t *testing.T) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, 120, 40))
	for y := 4; y < 36; y++ {
		for x := 0; x < 120; x++ {
			c := color.NRGBA{0x0b, 0x6e, 0x4f, 0xff}
			if x > 8 && x < 32 && y > 10 && y < 30 {
				c = color.NRGBA{0xff, 0xff, 0xff, 0xff}
			}
			m.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	check(t, png.Encode(&b, m))
	return b.Bytes()
}

// putLogo uploads the account's logo (PUT /me/logo).
func (e *env) putLogo(data []byte) {
	e.t.Helper()
	req, err := http.NewRequest("PUT", e.URL+"/me/logo", bytes.NewReader(data))
	check(e.t, err)
	req.Header.Set("Authorization", e.bearer)
	req.Header.Set("Content-Type", "image/png")
	resp, err := http.DefaultClient.Do(req)
	check(e.t, err)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		e.t.Fatalf("PUT /me/logo: %d", resp.StatusCode)
	}
}

// A computer that opens a link on a loopback address (IDGATE_PUBLIC_URL
// unset, as under make run and here) is told beside the QR code that a
// phone cannot open it, and what to do; the note names the link's host,
// but no setting: the person behind a link does not run the server (the
// server's log says which setting to change).
func TestHandoffSaysLoopbackLinkIsUnreachable(t *testing.T) {
	testkit.TakesTurns(t, 2)
	e := start(t)
	desk := newTab(t, false)
	desk.Open(e.create(`{}`).URL)
	contains(t, desk.screen("start"), "Continue on your phone", "A phone can't open this code", strings.TrimPrefix(e.URL, "http://"),
		"Continue on this computer")
	if strings.Contains(desk.screen("start"), "IDGATE_") {
		t.Error("the end user is shown a setting's name")
	}
	if !eval[bool](desk, `document.querySelector(".handoff img.qr + #qr-unreachable") !== null`) {
		t.Error("the note is not beside the QR code")
	}
	desk.Shoot("start-desktop-unreachable-link")
}
