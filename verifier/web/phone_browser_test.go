package web_test

import (
	"encoding/json"
	"fmt"
	"github.com/chromedp/chromedp"
	"strings"
	"testing"
	"time"
)

// lastCode is the newest code the dev phone provider wrote to its log.
func (e *env) lastCode() string {
	e.t.Helper()
	code := ""
	for _, line := range strings.Split(e.phoneLogs.String(), "\n") {
		var rec struct {
			Code string `json:"code"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Code != "" {
			code = rec.Code
		}
	}
	if code == "" {
		e.t.Fatalf("the dev phone provider logged no code:\n%s", e.phoneLogs.String())
	}
	return code
}

// typeInto sets an input's value as typing would.
func (tb *tab) typeInto(id, value string) {
	tb.T.Helper()
	if !eval[bool](tb, fmt.Sprintf(`(() => { const i = document.getElementById(%q); if (!i) return false; i.value = %q; i.dispatchEvent(new Event("input")); return true; })()`, id, value)) {
		tb.T.Fatalf("no input #%s on screen %q", id, eval[string](tb, `document.querySelector("main").dataset.screen`))
	}
}

// The phone step on a phone, with the dev provider (the code read from
// its log, as a developer under make run would): the start page says the
// number is checked and shared; a number that is not valid is refused in
// words; a wrong code says how many tries are left; the right one goes on
// to submit and Done, and the result carries phone_verification.
func TestPhoneStepInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	phone := newTab(t, true)

	fresh := e.create(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	phone.Open(fresh.URL)
	contains(t, phone.screen("start"), "Your mobile phone number: we send it a code by text message.", "Your phone number, its carrier's name")
	phone.Shoot("20-start-with-phone")

	c := e.create(`{"phone_verification":true,"encryption_key_mode":"none","webhook_url":"` + e.hooks.URL + `"}`)
	e.throughAPI(c, foremanFace(t))
	phone.Open(c.URL) // license and selfie done: the page goes on to the phone
	contains(t, phone.screen("phone"), "STEP 4 OF 4", "Your phone number", "Mobile phone number", "Send the code")
	phone.Shoot("21-phone-number")

	phone.click("Send the code") // nothing typed: said, not silently refocused
	phone.Wait(`!!document.querySelector(".alert")`)
	contains(t, phone.screen("phone"), "Enter your mobile phone number first.")

	// On a small phone the reasons push the button down: it is brought
	// back into view, the reasons just above it.
	phone.Run(chromedp.EmulateViewport(360, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	phone.typeInto("phone-number", "555 0123")
	phone.click("Send the code")
	phone.Wait(`!!document.querySelector(".alert ul")`)
	contains(t, phone.screen("phone"), "This is not a valid phone number")
	if !eval[bool](phone, `(() => { const b = [...document.querySelectorAll("button")].find(b => b.textContent === "Send the code").getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; })()`) {
		t.Error("at 360×640 the Send button is off the screen after the reasons appear")
	}
	phone.Screenshot("22-phone-invalid-360x640")
	phone.Size(true)
	phone.Shoot("22-phone-invalid")

	phone.typeInto("phone-number", "(201) 555-0123")
	phone.click("Send the code")
	text := phone.screen("phone-code")
	contains(t, text, "Enter the code", "+1 ••• 123", "10 minutes", "Check the code", "Use another number")
	if strings.Contains(text, "555") {
		t.Errorf("the page shows the whole number:\n%s", text)
	}
	phone.Shoot("23-phone-code")
	// The resend button waits out the server's 30 s, counting down.
	phone.Wait(`document.body.innerText.includes("new code in 27 seconds")`)
	code := e.lastCode()

	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	phone.typeInto("phone-code", wrong)
	phone.click("Check the code")
	phone.Wait(`document.body.innerText.includes("Tries left: 4")`)
	phone.Shoot("24-phone-wrong-code")

	phone.typeInto("phone-code", code[:3]+" "+code[3:])
	phone.click("Check the code")
	contains(t, phone.screen("done"), "Done, you can close this page")
	if s := e.status(c.ID); s != "completed" {
		t.Fatalf("verification is %s, want completed", s)
	}
	e.hooks.Wait(t, 1, 30*time.Second)
	var result struct {
		Phone struct {
			AreaCode string `json:"phone_areacode"`
			Last3    string `json:"last_3_digits"`
			Verified bool   `json:"phone_verified"`
			LineType string `json:"line_type"`
		} `json:"phone_verification"`
	}
	if err := json.Unmarshal(e.hooks.Requests()[0].Body, &result); err != nil {
		t.Fatal(err)
	}
	if p := result.Phone; p.AreaCode != "201" || p.Last3 != "123" || !p.Verified || p.LineType != "unknown" {
		t.Errorf("phone_verification %+v", p)
	}
}

// Spanish, and the step settled without a confirmed number: five wrong
// codes, then the page says so and lets the person finish.
func TestPhoneStepUnconfirmedInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	phone := newTab(t, true)
	phone.language("es-MX,es;q=0.9")
	c := e.create(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	e.throughAPI(c, foremanFace(t))
	phone.Open(c.URL)
	contains(t, phone.screen("phone"), "Tu número de teléfono", "Enviar el código")
	phone.typeInto("phone-number", "+52 55 1234 5678")
	phone.click("Enviar el código")
	contains(t, phone.screen("phone-code"), "+52 ••• 678")
	phone.Shoot("25-phone-code-spanish")
	code := e.lastCode()
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := 4; i >= 1; i-- {
		phone.typeInto("phone-code", wrong)
		phone.click("Comprobar el código")
		phone.Wait(fmt.Sprintf(`document.body.innerText.includes("Intentos restantes: %d")`, i))
	}
	phone.typeInto("phone-code", wrong)
	phone.click("Comprobar el código")
	contains(t, phone.screen("phone-failed"), "No pudimos confirmar tu número", "Continuar")
	phone.Shoot("26-phone-unconfirmed-spanish")
	phone.click("Continuar")
	phone.screen("done")
	if s := e.status(c.ID); s != "completed" {
		t.Fatalf("verification is %s, want completed", s)
	}
}
