package web_test

import (
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

// The test provider's magic numbers (docs/test-mode.md) walked on a test
// link's phone step, on a phone: each refusal shows the live flow's own
// words for it on the number screen, with the number still there to
// correct, and the tester goes on with another number to a confirmed step
// and Done. +1 217 555 0100 is a landline (phone_not_mobile),
// +1 217 555 0101 cannot take a text (phone_undeliverable) and
// +1 217 555 0102 finds the provider down (503, Retry-After 30).
func TestTestModePhoneMagicNumbersInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	e.signInTest()
	phone := newTab(t, true)

	c := e.create(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	phone.Open(c.URL)
	phone.screen("phone")
	for _, n := range []struct{ number, says, shot string }{
		{"+1 217 555 0100", "This number cannot receive text messages. Enter a mobile number.", "30-test-phone-landline"},
		{"+1 217 555 0101", "We cannot send a text message to this number. Enter another mobile number.", "31-test-phone-undeliverable"},
		{"+1 217 555 0102", "We could not send the code just now. Wait 30 seconds, then send it again.", "32-test-phone-provider-down"},
	} {
		phone.typeInto("phone-number", n.number)
		phone.click("Send the code")
		phone.WaitText(n.says)
		if s := eval[string](phone, `document.querySelector("main").dataset.screen`); s != "phone" {
			t.Fatalf("%s: the page left the number screen for %q", n.number, s)
		}
		if v := eval[string](phone, `document.getElementById("phone-number").value`); v != n.number {
			t.Errorf("%s: the number field holds %q afterwards", n.number, v)
		}
		if eval[bool](phone, `document.querySelector("button[type=submit]").disabled`) {
			t.Errorf("%s: Send the code stays disabled", n.number)
		}
		phone.Shoot(n.shot)
	}

	// Another number goes through: the code, the picker, Done.
	phone.typeInto("phone-number", "(312) 555-0147")
	phone.click("Send the code")
	contains(t, phone.screen("phone-code"), "+1 ••• 147")
	phone.typeInto("phone-code", "000000")
	phone.click("Check the code")
	contains(t, phone.screen("test"), "Phone: from the phone step you walked (number confirmed).")
	phone.click("Finish with this outcome")
	phone.screen("done")
	var v struct {
		Result struct {
			Phone struct {
				Last3    string `json:"last_3_digits"`
				Verified bool   `json:"phone_verified"`
			} `json:"phone_verification"`
		} `json:"result"`
	}
	e.call("GET", "/verification?id="+c.ID, "", 200, &v)
	if p := v.Result.Phone; p.Last3 != "147" || !p.Verified {
		t.Fatalf("after the magic numbers and another number: phone_verification %+v", p)
	}
}
