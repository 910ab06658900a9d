package http

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/phone"
	"github.com/idgate/idgate/verifier/phone/dev"
)

// TestFlowPhoneTestLinks (docs/test-mode.md): on a test verification the phone
// step never reaches the configured provider — the Twilio double sees no
// request, the dev provider logs no code — whatever the configuration:
// phone.TestCode verifies, any other code is a wrong one counted as on a
// live link, and the magic numbers give the refusals. A live link on the
// same server still goes to the provider. The walked step is the test
// result's phone_verification.
func TestFlowPhoneTestLinks(t *testing.T) {
	t.Run("twilio", func(t *testing.T) {
		h, d := phoneHarness(t, openSQLite)
		walkTestPhone(t, h, func() int { return d.Requests() })
	})
	t.Run("dev", func(t *testing.T) {
		p, err := dev.New("dev", slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		c := &counted{Provider: p}
		h := newFlowHarness(t, openSQLite, func(dp *Deps) { dp.Flow.Phone = c })
		walkTestPhone(t, h, func() int { return int(c.calls.Load()) })
	})
}

// walkTestPhone walks the phone step of test links on h, whose provider
// has been reached reached() times.
func walkTestPhone(t *testing.T, h *flowHarness, reached func() int) {
	t.Helper()
	test := h.signInMode(h.acct.Email, "test")
	v := h.create(test, `{"phone_verification":true,"encryption_key_mode":"none"}`)
	tok := token(t, v)
	if s := h.session(tok); len(s.Steps) != 4 || s.Steps[3].Name != flow.StepPhone {
		t.Fatalf("a test link without the phone step: %+v", s.Steps)
	}
	for number, code := range map[string]string{phone.TestNumberLandline: "phone_not_mobile",
		phone.TestNumberUndeliverable: "phone_undeliverable", "(217) 555-01": "phone_invalid"} {
		if e := expectError(t, h.sendCode(tok, number), 422, "VALIDATION_FAILED"); e.Details[0].Code != code {
			t.Errorf("%s: %+v, want %s", number, e.Details, code)
		}
	}
	r := h.sendCode(tok, phone.TestNumberUnavailable)
	expectError(t, r, 503, "UNAVAILABLE")
	if r.header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	var sent flow.PhoneView
	h.ok(h.sendCode(tok, "(217) 555-0123"), 200, &sent)
	if !sent.CodeSent || sent.Number != "+1 ••• 123" || sent.SendsLeft != 4 || sent.ResendIn != 30 {
		t.Fatalf("sent %+v (the refused sends were given back?)", sent)
	}
	expectError(t, h.sendCode(tok, "(217) 555-0123"), 429, "RATE_LIMITED") // resends wait as on live links
	var ans flow.PhoneCheckAnswer
	h.ok(h.enterCode(tok, "123456"), 200, &ans)
	if ans.Verified || ans.Settled || ans.AttemptsLeft != 4 {
		t.Fatalf("a wrong code on a test link: %+v", ans)
	}
	h.ok(h.enterCode(tok, phone.TestCode), 200, &ans)
	if !ans.Verified || !ans.Settled {
		t.Fatalf("the test code: %+v", ans)
	}
	if n := reached(); n != 0 {
		t.Fatalf("a test link reached the configured provider %d times", n)
	}
	h.ok(h.post(tok, "/test/complete", "application/json", []byte(`{"outcome":"verified"}`)), 200, nil)
	var res struct {
		Livemode bool           `json:"livemode"`
		Phone    map[string]any `json:"phone_verification"`
	}
	if err := json.Unmarshal(h.get(test, v.ID).Result, &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"phone_areacode": "217", "last_3_digits": "123", "phone_verified": true, "line_type": "mobile",
		"lookup": map[string]any{"phone_number": "+12175550123", "caller_name": phone.TestCallerName, "carrier_name": phone.TestCarrier}}
	if res.Livemode || mustJSON(t, res.Phone) != mustJSON(t, want) {
		t.Errorf("test result livemode %v phone_verification %s, want %s", res.Livemode, mustJSON(t, res.Phone), mustJSON(t, want))
	}

	// Wrong codes run out as on a live link: the step settles unverified
	// and the test code no longer helps.
	tok = token(t, h.create(test, `{"phone_verification":true,"encryption_key_mode":"none"}`))
	h.ok(h.sendCode(tok, "+1 217 555 0199"), 200, nil)
	for i := 1; i <= flow.DefaultPhoneLimits.WrongCodes; i++ {
		h.ok(h.enterCode(tok, "999999"), 200, &ans)
		if ans.AttemptsLeft != flow.DefaultPhoneLimits.WrongCodes-i {
			t.Fatalf("wrong code %d: %+v", i, ans)
		}
	}
	h.ok(h.enterCode(tok, phone.TestCode), 200, &ans)
	if ans.Verified || !ans.Settled {
		t.Fatalf("the test code after the wrong codes ran out: %+v", ans)
	}
	if n := reached(); n != 0 {
		t.Fatalf("a test link reached the configured provider %d times", n)
	}

	// A live link on the same server goes to the configured provider.
	_, tok = h.link(`{"phone_verification":true,"encryption_key_mode":"none"}`)
	h.clock.Advance(time.Minute)
	h.ok(h.sendCode(tok, "(201) 555-0123"), 200, nil)
	if reached() == 0 {
		t.Fatal("a live link's code did not reach the provider")
	}
}

// counted is a provider that counts every call into it.
type counted struct {
	phone.Provider
	calls atomic.Int64
}

func (c *counted) Lookup(ctx context.Context, n phone.Number) (phone.Lookup, error) {
	c.calls.Add(1)
	return c.Provider.Lookup(ctx, n)
}

func (c *counted) Send(ctx context.Context, n phone.Number, code, locale string) (string, error) {
	c.calls.Add(1)
	return c.Provider.Send(ctx, n, code, locale)
}

func (c *counted) Confirm(ctx context.Context, ref string) error {
	c.calls.Add(1)
	return c.Provider.Confirm(ctx, ref)
}
