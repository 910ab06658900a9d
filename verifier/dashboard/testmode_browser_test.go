package dashboard_test

import (
	"fmt"
	"strings"
	"testing"
)

// testMode is acct with a test-mode bearer token (POST /auth "mode":
// "test"): what it creates is a test verification.
func (e *env) testMode(acct *account) *account {
	e.t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
		Livemode    bool   `json:"livemode"`
	}
	e.call(nil, "POST", "/auth", fmt.Sprintf(`{"email":%q,"password":%q,"mode":"test"}`, acct.email, acct.password), 200, &tok)
	if tok.Livemode {
		e.t.Fatal("POST /auth with mode test answered a live token")
	}
	t := *acct
	t.bearer = "Bearer " + tok.AccessToken
	return &t
}

// testComplete finishes a test verification with outcome, as a CI run
// would (POST /v/{token}/test/complete).
func (e *env) testComplete(c created, outcome string) {
	e.t.Helper()
	e.endUser(c, "/test/complete", "application/json", []byte(fmt.Sprintf(`{"outcome":%q}`, outcome)), 200)
}

// lacks fails when the page shows any of unwanted.
func lacks(t *testing.T, text string, unwanted ...string) {
	t.Helper()
	for _, u := range unwanted {
		if strings.Contains(text, u) {
			t.Errorf("page shows %q; it reads:\n%s", u, text)
		}
	}
}

// sessionMode is the mode GET /dashboard/session reports to the page.
func (tb *tab) sessionMode() string {
	tb.T.Helper()
	return eval[string](tb, `fetch("/dashboard/session").then(r => r.json()).then(s => s.mode)`)
}

// TestTestModeInChromium: the dashboard's live/test switch (docs/test-mode.md).
// One account has live and test verifications (made through the API); the
// live view shows only live ones and the test view only test ones, lists
// and detail by id both ways; the switch is refused without the CSRF
// token, survives a reload, and a tab follows a switch made elsewhere; the
// test-mode pages carry the banner, pass axe-core and fit a 390 px phone;
// Profile in test mode generates the test integration key, shown once.
func TestTestModeInChromium(t *testing.T) {
	e := start(t)
	test := e.testMode(e.a)
	live := e.create(e.a, `{"external_id":"live-order-1"}`)
	tv := e.create(test, `{"external_id":"test-order-1","front_barcode_match":true}`)
	e.testComplete(tv, "verified")
	tr := e.create(test, `{"external_id":"test-review-1"}`)
	e.testComplete(tr, "manual_review")

	tb := newTab(t, e)
	tb.signIn(e.a)

	// Live mode: live data only, no test marker.
	tb.page("#/requests", "Requests")
	text := tb.Text()
	contains(t, text, "live-order-1")
	lacks(t, text, "test-order-1", "test-review-1", "TEST DATA")
	if on := eval[string](tb, `document.querySelector("button.modeswitch").getAttribute("aria-checked")`); on != "false" {
		t.Fatalf("the switch reads aria-checked=%s in live mode", on)
	}
	tb.page("#/requests/"+tv.ID, "Request")
	tb.WaitText("Not found in this account.")
	tb.page("#/review", "Review queue")
	tb.WaitText("Nothing to review.")
	tb.page("#/review/"+tr.ID, "Review")
	tb.WaitText("Not found in this account.")

	// Switching is a state change: without the CSRF token the page's own
	// script is refused, and the session stays live.
	if s := eval[int](tb, `fetch("/dashboard/session", {method: "PATCH", headers: {"Content-Type": "application/json"}, body: '{"mode":"test"}'}).then(r => r.status)`); s != 403 {
		t.Fatalf("PATCH /dashboard/session without X-CSRF-Token: %d, want 403", s)
	}
	if m := tb.sessionMode(); m != "live" {
		t.Fatalf("a refused switch left the session in %s mode", m)
	}

	// The switch: test mode, marked on every page.
	tb.page("#/requests", "Requests")
	tb.click("Test mode")
	tb.Wait(`!!document.querySelector(".testbanner") && document.querySelector("button.modeswitch").getAttribute("aria-checked") === "true" && document.activeElement === document.querySelector("button.modeswitch")`)
	tb.Wait(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText === "Test requests" && !document.querySelector(".busy"); })()`)
	text = tb.Text()
	contains(t, text, "TEST DATA", "test-order-1", "test-review-1")
	lacks(t, text, "live-order-1")
	if title := eval[string](tb, `document.title`); !strings.HasPrefix(title, "TEST · ") {
		t.Errorf("document title %q lacks the test marker", title)
	}
	tb.Shoot("testmode-requests")
	tb.fitsPhone("testmode-requests")

	// The switch survives a reload (it is the session's, on the server).
	tb.page("#/requests/"+tv.ID, "Request test-order-1")
	tb.WaitText("TEST DATA", "Front matches the barcode", "Document number")
	row := func(label string) string {
		return eval[string](tb, fmt.Sprintf(`[...document.querySelectorAll(".facts dt")].find(d => d.textContent === %q).nextElementSibling.textContent`, label))
	}
	if m := row("Mode"); m != "Test" {
		t.Errorf("the request's Mode row reads %q, want Test", m)
	}
	// front_barcode_match as a labelled check (the test fixture's front
	// reads as its barcode), with each field's outcome.
	if f := row("Front matches the barcode"); !strings.HasPrefix(f, "Match") || strings.Count(f, "Match") != 7 {
		t.Errorf("the front_barcode_match row reads %q, want Match and six matching fields", f)
	}
	tb.Shoot("testmode-request")
	tb.fitsPhone("testmode-request")
	tb.page("#/requests/"+live.ID, "Request")
	tb.WaitText("Not found in this account.")
	contains(t, tb.Text(), "TEST DATA")

	tb.page("#/review", "Review queue (test)")
	tb.WaitText("1 waiting.", "test-review-1")
	tb.Shoot("testmode-review")
	tb.fitsPhone("testmode-review")
	// Deciding a test review: it completes the test verification, as live.
	tb.click("Review")
	tb.WaitText("Review test-review-1", "Decision", "TEST DATA", "outcome is chosen, not photographed")
	tb.Shoot("testmode-review-one")
	tb.fitsPhone("testmode-review-one")
	tb.fill("Reason (optional)", "CI run: approved on purpose")
	tb.click("Approve: same person")
	tb.WaitText("Approved", "The queue is empty.")
	if st, _ := e.status(test, tr.ID); st != "completed" {
		t.Errorf("the decided test review is %s, want completed", st)
	}
	e.call(e.a, "GET", "/verification?id="+tr.ID, "", 404, nil) // still not live's

	tb.page("#/templates", "Templates")
	tb.WaitText("TEST DATA", "serve both modes")
	tb.Shoot("testmode-templates")
	tb.fitsPhone("testmode-templates")

	// Profile: the test integration key, generated and shown once; no
	// usage (and no /quota call) in test mode.
	before := len(tb.rec.Sent())
	tb.page("#/profile", "Profile")
	tb.WaitText("Test integration key", "This account has no test integration key.", "Test verifications use no allowance")
	tb.Shoot("testmode-profile")
	tb.fitsPhone("testmode-profile")
	tb.click("Generate a key")
	tb.Wait(`!!document.querySelector(".secret-once input")`)
	key := eval[string](tb, `document.querySelector(".secret-once input").value`)
	if !strings.HasPrefix(key, "idgk_test_") {
		t.Fatalf("test mode generated %q, want an idgk_test_ key", key)
	}
	tb.fill("Allowed domains", "shop.example.com\n*.staging.example.com")
	tb.click("Save")
	tb.WaitText("Saved: 2 allowed domains")
	tb.Shoot("testmode-profile-key")
	for _, r := range tb.rec.Sent()[before:] {
		if strings.Contains(r.URL, "/quota") {
			t.Errorf("test-mode Profile asked for the live usage: %s %s", r.Method, r.URL)
		}
	}
	var tk struct {
		Prefix         string   `json:"prefix"`
		AllowedDomains []string `json:"allowed_domains"`
		Livemode       bool     `json:"livemode"`
	}
	e.call(test, "GET", "/integration-key", "", 200, &tk)
	if tk.Livemode || tk.Prefix != key[:len(tk.Prefix)] || len(tk.AllowedDomains) != 2 {
		t.Errorf("the test key as the API sees it: %+v", tk)
	}
	tb.WaitText(tk.Prefix + "…")
	e.call(e.a, "GET", "/integration-key", "", 404, nil) // no live key was made
	tb.page("#/profile", "Profile")
	if strings.Contains(tb.Text(), key) {
		t.Error("the test key is shown again after leaving the page")
	}

	// Another tab switches the session back to live: this tab's next call
	// is refused in the old mode and the tab follows, saying why.
	eval[int](tb, `fetch("/dashboard/session").then(r => r.json()).then(s => fetch("/dashboard/session", {method: "PATCH",
		headers: {"Content-Type": "application/json", "X-CSRF-Token": s.csrf_token}, body: '{"mode":"live"}'})).then(r => r.status)`)
	tb.goTo("#/requests")
	tb.Wait(`!document.querySelector(".testbanner") && document.querySelector("button.modeswitch").getAttribute("aria-checked") === "false"`)
	tb.Wait(`(() => { const h = document.querySelector("main h1"); return !!h && h.innerText === "Requests" && !document.querySelector(".busy"); })()`)
	tb.WaitText("live-order-1")
	text = tb.Text()
	lacks(t, text, "test-order-1", "TEST DATA")
	tb.Wait(`document.querySelector("p.vh[role=status]").textContent.includes("switched to live mode in another tab")`)

	// And the switch back and forth from the header.
	tb.click("Test mode")
	tb.Wait(`!!document.querySelector(".testbanner")`)
	tb.click("Test mode")
	tb.Wait(`!document.querySelector(".testbanner") && !document.querySelector(".busy")`)
	tb.WaitText("live-order-1")
	if m := tb.sessionMode(); m != "live" {
		t.Fatalf("after switching off, the session is in %s mode", m)
	}
	tb.sameOrigin()
}
