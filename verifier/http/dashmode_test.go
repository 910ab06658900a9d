package http

import (
	"strings"
	"testing"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/sqlstore"
)

// dashboardAs is one signed-in dashboard session: every request carries
// the cookie, the mode the page shows (Idgate-Mode) and, unless it is a
// GET, the CSRF token.
type dashboardAs struct {
	h            *harness
	cookie, csrf string
}

func (d dashboardAs) do(mode, method, path, body string) response {
	d.h.t.Helper()
	hs := []string{"Cookie", d.cookie}
	if mode != "" {
		hs = append(hs, "Idgate-Mode", mode)
	}
	if method != "GET" {
		hs = append(hs, "X-CSRF-Token", d.csrf)
	}
	return d.h.do(method, path, body, hs...)
}

// listIDs is GET /verifications in the session's mode, as ids.
func (d dashboardAs) listIDs(mode string) []string {
	d.h.t.Helper()
	r := d.do(mode, "GET", "/verifications", "")
	if r.status != 200 {
		d.h.t.Fatalf("list in %s mode: %d %s", mode, r.status, r.body)
	}
	var l verificationList
	r.json(d.h.t, &l)
	var ids []string
	for _, v := range l.Items {
		ids = append(ids, v.ID)
	}
	return ids
}

func (d dashboardAs) sessionMode() string {
	d.h.t.Helper()
	r := d.do("", "GET", "/dashboard/session", "")
	var s sessionAnswer
	r.json(d.h.t, &s)
	if r.status != 200 || r.header.Get("Idgate-Mode") != s.Mode {
		d.h.t.Fatalf("GET /dashboard/session: %d %v %s", r.status, r.header, r.body)
	}
	return s.Mode
}

// TestDashboardSessionMode: the dashboard's live/test switch (docs/test-mode.md).
// A session starts live, PATCH /dashboard/session switches it (CSRF like
// any state change), and every API request of the session is in its mode:
// lists, reads by id, changes and the integration key see that mode's data
// only, exactly as a bearer token of that mode would. A request naming the
// other mode (a stale tab) is refused, one naming none is malformed. On
// both backends: the mode is a column of the session's row.
func TestDashboardSessionMode(t *testing.T) {
	onBothBackends(t, testDashboardSessionMode)
}

func testDashboardSessionMode(t *testing.T, open func(t *testing.T) *sqlstore.DB) {
	h := newHarnessOn(t, open(t))
	a, live := h.owner()
	test := h.signInMode(a.Email, "test")
	lv := h.create(live, `{"external_id":"live-order"}`)
	tv := h.create(test, `{"external_id":"test-order"}`)
	cookie, csrf := h.dashboardSignIn(a.Email, "correct horse battery staple")
	d := dashboardAs{h: h, cookie: cookie, csrf: csrf}

	if m := d.sessionMode(); m != "live" {
		t.Fatalf("a new session is in %q mode, want live", m)
	}
	if ids := d.listIDs("live"); len(ids) != 1 || ids[0] != lv.ID {
		t.Fatalf("live session lists %v, want only %s", ids, lv.ID)
	}
	expectError(t, d.do("live", "GET", "/verification?id="+tv.ID, ""), 404, httperr.NotFound)

	// The page must name its mode; a wrong or missing name is refused
	// before the handler, and the answer says the session's mode.
	expectError(t, d.do("", "GET", "/verifications", ""), 400, httperr.BadRequest)
	expectError(t, d.do("sandbox", "GET", "/verifications", ""), 400, httperr.BadRequest)
	stale := d.do("test", "GET", "/verifications", "")
	expectError(t, stale, 409, httperr.Conflict)
	if stale.header.Get("Idgate-Mode") != "live" {
		t.Errorf("a refused request's Idgate-Mode %q, want the session's (live)", stale.header.Get("Idgate-Mode"))
	}

	// Switching: CSRF first, then a valid mode.
	expectError(t, h.do("PATCH", "/dashboard/session", `{"mode":"test"}`, "Cookie", cookie), 403, httperr.Forbidden)
	expectError(t, h.do("PATCH", "/dashboard/session", `{"mode":"test"}`, "Cookie", cookie, "X-CSRF-Token", strings.Repeat("A", 43)), 403, httperr.Forbidden)
	if m := d.sessionMode(); m != "live" {
		t.Fatalf("a refused switch changed the mode to %q", m)
	}
	expectError(t, d.do("", "PATCH", "/dashboard/session", `{"mode":"sandbox"}`), 422, httperr.ValidationFailed)
	expectError(t, d.do("", "PATCH", "/dashboard/session", `{}`), 422, httperr.ValidationFailed)
	expectError(t, d.do("", "PATCH", "/dashboard/session", `{"mode":"test","extra":1}`), 422, httperr.ValidationFailed)
	expectError(t, h.do("PATCH", "/dashboard/session", `{"mode":"test"}`, "Authorization", live), 401, httperr.Unauthenticated)
	sw := d.do("", "PATCH", "/dashboard/session", `{"mode":"test"}`)
	var s sessionAnswer
	sw.json(t, &s)
	if sw.status != 200 || s.Mode != "test" || s.CSRFToken != csrf || sw.header.Get("Idgate-Mode") != "test" {
		t.Fatalf("switch to test: %d %v %s", sw.status, sw.header, sw.body)
	}

	// In test mode: only test data, by list and by id; the live
	// verification is not found for any operation, and unchanged.
	if m := d.sessionMode(); m != "test" {
		t.Fatalf("after the switch, the session reads %q", m)
	}
	if ids := d.listIDs("test"); len(ids) != 1 || ids[0] != tv.ID {
		t.Fatalf("test session lists %v, want only %s", ids, tv.ID)
	}
	var got verificationResponse
	d.do("test", "GET", "/verification?id="+tv.ID, "").json(t, &got)
	if got.ID != tv.ID || got.Livemode {
		t.Fatalf("test verification in the test session: %+v", got)
	}
	for _, req := range []struct{ method, path, body string }{
		{"GET", "/verification?id=" + lv.ID, ""},
		{"POST", "/verification/cancel?id=" + lv.ID, ""},
		{"POST", "/verification/review?id=" + lv.ID, `{"approved":true}`},
		{"GET", "/verification/webhook/deliveries?id=" + lv.ID, ""},
		{"DELETE", "/verification?id=" + lv.ID, ""},
	} {
		expectError(t, d.do("test", req.method, req.path, req.body), 404, httperr.NotFound)
	}
	if v := h.get(live, lv.ID); v.Status != verifier.StatusPending {
		t.Fatalf("the live verification is %s after the test session's attempts", v.Status)
	}
	// A tab still drawn in live mode is refused now, changes included.
	expectError(t, d.do("live", "GET", "/verifications", ""), 409, httperr.Conflict)
	expectError(t, d.do("live", "POST", "/verification/cancel?id="+lv.ID, ""), 409, httperr.Conflict)
	if v := h.get(live, lv.ID); v.Status != verifier.StatusPending {
		t.Fatalf("a stale tab's cancel went through: %s", v.Status)
	}

	// The integration key in test mode is the test key, beside the live one.
	var tk, lk integrationKeyResponse
	d.do("test", "POST", "/integration-key", `{"allowed_domains":["shop.example.com"]}`).json(t, &tk)
	if !strings.HasPrefix(tk.Key, verifier.TestIntegrationKeyPrefix) || tk.Livemode {
		t.Fatalf("the test session generated %+v", tk)
	}
	expectError(t, h.do("GET", "/integration-key", "", "Authorization", live), 404, httperr.NotFound)
	d.do("test", "GET", "/integration-key", "").json(t, &lk)
	if lk.ID != tk.ID || lk.Key != "" {
		t.Fatalf("GET /integration-key in test mode: %+v", lk)
	}

	// The mode is this session's: another sign-in of the account starts live.
	c2, csrf2 := h.dashboardSignIn(a.Email, "correct horse battery staple")
	d2 := dashboardAs{h: h, cookie: c2, csrf: csrf2}
	if m := d2.sessionMode(); m != "live" {
		t.Fatalf("a second session is in %q mode", m)
	}
	if ids := d2.listIDs("live"); len(ids) != 1 || ids[0] != lv.ID {
		t.Fatalf("second session (live) lists %v", ids)
	}
	expectError(t, d2.do("live", "GET", "/integration-key", ""), 404, httperr.NotFound)

	// And back: the first session is live again.
	d.do("", "PATCH", "/dashboard/session", `{"mode":"live"}`).json(t, &s)
	if s.Mode != "live" {
		t.Fatalf("switch back: %+v", s)
	}
	if ids := d.listIDs("live"); len(ids) != 1 || ids[0] != lv.ID {
		t.Fatalf("back in live mode the session lists %v", ids)
	}
}
