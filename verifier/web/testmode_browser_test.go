package web_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// The test page (issue #22) in Chromium: a test verification's link shows
// the marked test page instead of the camera steps; picking "verified"
// completes it (its webhook carries livemode false), and picking
// "inconclusive" offers the review as a real inconclusive match does, which
// the tester sends to manual_review.
func TestTestModeInChromium(t *testing.T) {
	e := start(t)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	e.bearer = ""
	e.call("POST", "/auth", `{"email":"owner@example.com","password":"correct horse battery","mode":"test"}`, 200, &tok)
	e.bearer = "Bearer " + tok.AccessToken
	phone := newTab(t, true)

	c := e.create(fmt.Sprintf(`{"webhook_url":%q,"message":"Test order 1001"}`, e.hooks.URL))
	phone.Open(c.URL)
	contains(t, phone.screen("test"), "Test mode", "Test order 1001", "Verified: every check passes",
		"Face inconclusive: offer a manual review", "Finish with this outcome")
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
