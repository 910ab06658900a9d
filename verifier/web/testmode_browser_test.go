package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// signInTest gets a test-mode bearer token: what it creates is a test
// verification, whose link opens the test page.
func (e *env) signInTest() {
	e.t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	e.bearer = ""
	e.call("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery","mode":"test"}`, 200, &tok)
	e.bearer = "Bearer " + tok.AccessToken
}

// The test page (docs/test-mode.md) in Chromium: a test verification's link shows
// the marked test page instead of the camera steps; picking "verified"
// completes it (its webhook carries livemode false), and picking
// "inconclusive" offers the review as a real inconclusive match does, which
// the tester sends to manual_review.
func TestTestModeInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	e.signInTest()
	phone := newTab(t, true)

	c := e.create(fmt.Sprintf(`{"webhook_url":%q,"message":"Test order 1001"}`, e.hooks.URL))
	phone.Open(c.URL)
	contains(t, phone.screen("test"), "Test mode", "Test order 1001", "Verified: every check passes",
		"Face inconclusive: offer a manual review", "Finish with this outcome", "License expired", "License does not look genuine")
	phone.Shoot("20-test-page")
	phone.click("Finish with this outcome")
	contains(t, phone.screen("done"), "Test mode", "Done, you can close this page.")
	phone.Shoot("21-test-done")
	if s := e.status(c.ID); s != "completed" {
		t.Fatalf("verification is %s after the test page's verified, want completed", s)
	}
	e.hooks.Wait(t, 1, 30*time.Second)
	var body struct {
		RequestID    string         `json:"request_id"`
		Livemode     *bool          `json:"livemode"`
		Verification map[string]any `json:"verification"`
	}
	if err := json.Unmarshal(e.hooks.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.RequestID != c.ID || body.Livemode == nil || *body.Livemode || body.Verification["face_match_score"] != "definite_match" {
		t.Fatalf("webhook of the test verification: %s", e.hooks.Requests()[0].Body)
	}

	c = e.create(`{}`)
	phone.Open(c.URL)
	phone.screen("test")
	if !eval[bool](phone, `(() => { const r = document.querySelector('input[name=outcome][value=inconclusive]'); if (!r) return false; r.click(); return r.checked; })()`) {
		t.Fatal("no inconclusive choice on the test page")
	}
	phone.click("Finish with this outcome")
	contains(t, phone.screen("review"), "Test mode", "Send for review")
	phone.Shoot("22-test-review-offer")
	phone.click("Send for review")
	contains(t, phone.screen("review-sent"), "Test mode")
	if s := e.status(c.ID); s != "manual_review" {
		t.Fatalf("verification is %s after the test page's review, want manual_review", s)
	}
	// Opened again, the link says how it ended, like a live one.
	phone.Open(c.URL)
	phone.screen("ended-review")
}

// A test link that asked for phone verification walks the live flow's
// phone step before the picker, on the test provider: the screens say the
// code is 000000 and nothing is sent, a wrong code gets the normal
// wrong-code message, 000000 goes on to the picker, which names the walked
// step instead of offering the phone indicator; the result's
// phone_verification is the walked number's.
func TestTestModePhoneStepInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	phone := newTab(t, true)

	c := e.create(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	phone.Open(c.URL)
	text := phone.screen("phone")
	contains(t, text, "Test mode", "Your phone number", "Mobile phone number", "Send the code",
		"no text message is sent. The code is always 000000.")
	if strings.Contains(text, "STEP") {
		t.Errorf("the test link's phone screen counts steps the tester never sees:\n%s", text)
	}
	phone.Shoot("23-test-phone-number")

	phone.typeInto("phone-number", "(312) 555-0147")
	phone.click("Send the code")
	contains(t, phone.screen("phone-code"), "Enter the code", "+1 ••• 147", "The code is always 000000.")
	phone.typeInto("phone-code", "123456")
	phone.click("Check the code")
	phone.Wait(`document.body.innerText.includes("That code is not right. Tries left: 4.")`)
	phone.Shoot("24-test-phone-wrong-code")

	phone.typeInto("phone-code", "000000")
	phone.click("Check the code")
	text = phone.screen("test")
	contains(t, text, "Test mode", "Verified: every check passes", "Phone: from the phone step you walked (number confirmed).")
	if eval[bool](phone, `!!document.getElementById("test-phone")`) {
		t.Error("the picker offers the phone indicator after the walked phone step")
	}
	phone.Shoot("25-test-phone-picker")
	phone.click("Finish with this outcome")
	phone.screen("done")

	var v struct {
		Status string `json:"status"`
		Result struct {
			Phone struct {
				AreaCode string `json:"phone_areacode"`
				Last3    string `json:"last_3_digits"`
				Verified bool   `json:"phone_verified"`
			} `json:"phone_verification"`
		} `json:"result"`
	}
	e.call("GET", "/verification?id="+c.ID, "", 200, &v)
	if p := v.Result.Phone; v.Status != "completed" || p.AreaCode != "312" || p.Last3 != "147" || !p.Verified {
		t.Fatalf("after the walked phone step: status %s, phone_verification %+v", v.Status, p)
	}
}

// Spanish, and the test link's phone step settled without a confirmed
// number (five wrong codes, as on a live link): the page says so and lets
// the tester go on, and the picker names the unconfirmed step.
func TestTestModePhoneUnconfirmedInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	phone := newTab(t, true)
	phone.language("es-MX,es;q=0.9")
	c := e.create(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	phone.Open(c.URL)
	contains(t, phone.screen("phone"), "Tu número de teléfono", "El código es siempre 000000.")
	phone.typeInto("phone-number", "+1 312 555 0147")
	phone.click("Enviar el código")
	phone.screen("phone-code")
	for i := 4; i >= 1; i-- {
		phone.typeInto("phone-code", "123456")
		phone.click("Comprobar el código")
		phone.Wait(fmt.Sprintf(`document.body.innerText.includes("Intentos restantes: %d")`, i))
	}
	phone.typeInto("phone-code", "123456")
	phone.click("Comprobar el código")
	contains(t, phone.screen("phone-failed"), "Modo de prueba", "No pudimos confirmar tu número")
	phone.click("Continuar")
	contains(t, phone.screen("test"), "Teléfono: según el paso del teléfono que hiciste (número no confirmado).")
	phone.Shoot("26-test-phone-unconfirmed-spanish")
	phone.click("Terminar con este resultado")
	phone.screen("done")

	var v struct {
		Result struct {
			Phone *struct {
				Verified bool `json:"phone_verified"`
			} `json:"phone_verification"`
		} `json:"result"`
	}
	e.call("GET", "/verification?id="+c.ID, "", 200, &v)
	if v.Result.Phone == nil || v.Result.Phone.Verified {
		t.Fatalf("after five wrong codes: phone_verification %+v, want phone_verified false", v.Result.Phone)
	}
}

// A new screen starts at the top, and its heading takes focus a moment
// later (app.ts, for screen readers) without moving the page: a late focus
// that scrolled once moved a button from under a finger whose touch had
// begun on it (the storefront demo's lost tap). A person who touches the
// screen before that moment keeps their focus too. "done" shows while the
// test page is scrolled down; in the same task as the change the page is
// scrolled again (as a person might), touched or not, and 600 ms later the
// heading has the focus only when nobody touched, and the page is where
// the person left it either way.
func TestHeadingWaitsForAPersonWhoTouchedInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	for _, touch := range []bool{true, false} {
		c := e.create(`{}`)
		phone := walkTab(t, 360, 640, "en-US")
		phone.Open(c.URL)
		phone.screen("test")
		phone.Wait(`document.activeElement === document.querySelector("main h1")`)

		type after struct {
			AtShow  float64 `json:"atShow"`
			Focused string  `json:"focused"`
			ScrollY float64 `json:"scrollY"`
		}
		got := eval[after](phone, `new Promise((done) => {
			const main = document.querySelector("main");
			document.body.style.minHeight = "3000px";
			scrollTo(0, 500);
			new MutationObserver((_, obs) => {
				if (main.dataset.screen !== "done") return;
				obs.disconnect();
				// In the same task as the screen's change: before its heading's moment.
				const atShow = scrollY;
				scrollTo(0, 1000);
				if (`+fmt.Sprint(touch)+`) document.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
				setTimeout(() => done({ atShow, focused: document.activeElement.tagName, scrollY }), 600);
			}).observe(main, { attributes: true, attributeFilter: ["data-screen"] });
			[...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Finish with this outcome").click();
		})`)
		if got.AtShow != 0 {
			t.Errorf("touched %v: the done screen showed at scrollY %v, not at the top", touch, got.AtShow)
		}
		if got.ScrollY != 1000 {
			t.Errorf("touched %v: 600 ms after done showed the page is at scrollY %v, not where the person left it (1000): the heading's focus moved it", touch, got.ScrollY)
		}
		if focused := got.Focused == "H1"; focused == touch {
			t.Errorf("touched %v: 600 ms after done showed the focus is on %s", touch, got.Focused)
		}
	}
}
