package http

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/httperr"
	"github.com/idgate/idgate/verifier"
)

// dashboardSignIn signs in through POST /dashboard/session and returns the
// Cookie header value and the CSRF token.
func (h *harness) dashboardSignIn(email, pw string) (cookie, csrf string) {
	h.t.Helper()
	r := h.do("POST", "/dashboard/session", `{"email":"`+email+`","password":"`+pw+`"}`)
	if r.status != 201 {
		h.t.Fatalf("dashboard sign-in: %d %s", r.status, r.body)
	}
	var s sessionAnswer
	r.json(h.t, &s)
	set := (&http.Response{Header: r.header}).Cookies()
	if len(set) != 1 {
		h.t.Fatalf("Set-Cookie: %v", r.header.Values("Set-Cookie"))
	}
	return set[0].Name + "=" + set[0].Value, s.CSRFToken
}

func TestDashboardSessionCookieAndCSRF(t *testing.T) {
	h := newHarness(t)
	a := h.account("owner@example.com", "correct horse battery staple")
	r := h.do("POST", "/dashboard/session", `{"email":"Owner@example.com","password":"correct horse battery staple"}`)
	if r.status != 201 || r.header.Get("Cache-Control") != "no-store" || r.header.Get("RateLimit-Limit") != "5" {
		t.Fatalf("sign-in: %d %v %s", r.status, r.header, r.body)
	}
	var s sessionAnswer
	r.json(t, &s)
	if s.AccountID != a.ID || s.Email != "owner@example.com" || len(s.CSRFToken) != 43 || s.IdleTimeout != 1800 ||
		!s.ExpiresAt.Equal(t0.Add(30*time.Minute)) {
		t.Fatalf("session answer %+v", s)
	}
	// The cookie: __Host- prefix, HttpOnly, Secure (not dev), SameSite=Strict,
	// Path=/, no Domain, no lifetime of its own (the server ends it).
	raw := r.header.Get("Set-Cookie")
	for _, want := range []string{"__Host-idgate_session=", "path=/", "HttpOnly", "secure", "SameSite=Strict"} {
		if !strings.Contains(strings.ToLower(raw), strings.ToLower(want)) {
			t.Errorf("Set-Cookie %q lacks %q", raw, want)
		}
	}
	if strings.Contains(strings.ToLower(raw), "domain=") || strings.Contains(strings.ToLower(raw), "max-age") {
		t.Errorf("Set-Cookie %q has a domain or lifetime", raw)
	}
	cookie := strings.SplitN(raw, ";", 2)[0]
	token := strings.TrimPrefix(cookie, "__Host-idgate_session=")
	if s.CSRFToken != verifier.CSRFToken(token) || s.CSRFToken == token {
		t.Fatal("the CSRF token is not the session's derived token")
	}
	// Only the hash is stored.
	if _, err := h.store.GetDashboardSession(t.Context(), []byte(token)); err == nil {
		t.Fatal("the token itself is a stored key")
	}

	// Reads with the cookie alone; the API's own endpoints take it.
	if me := h.do("GET", "/me", "", "Cookie", cookie, "Idgate-Mode", "live"); me.status != 200 || !strings.Contains(string(me.body), a.ID) ||
		me.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("GET /me with the cookie: %d %s", me.status, me.body)
	}
	if g := h.do("GET", "/dashboard/session", "", "Cookie", cookie); g.status != 200 || !strings.Contains(string(g.body), s.CSRFToken) {
		t.Fatalf("GET /dashboard/session: %d %s", g.status, g.body)
	}
	// A state change without the CSRF header, or with a wrong one, is
	// refused before anything happens; with it, it passes.
	tmpl := `{"name":"Age 21+"}`
	expectError(t, h.do("POST", "/templates", tmpl, "Cookie", cookie), 403, httperr.Forbidden)
	expectError(t, h.do("POST", "/templates", tmpl, "Cookie", cookie, "X-CSRF-Token", strings.Repeat("A", 43)), 403, httperr.Forbidden)
	other := h.account("other@example.com", "correct horse battery staple")
	_ = other
	_, otherCSRF := h.dashboardSignIn("other@example.com", "correct horse battery staple")
	expectError(t, h.do("POST", "/templates", tmpl, "Cookie", cookie, "X-CSRF-Token", otherCSRF), 403, httperr.Forbidden)
	if list, _ := h.store.ListTemplates(t.Context(), a.ID); len(list) != 0 {
		t.Fatalf("a refused request created %d templates", len(list))
	}
	if c := h.do("POST", "/templates", tmpl, "Cookie", cookie, "X-CSRF-Token", s.CSRFToken, "Idgate-Mode", "live"); c.status != 201 {
		t.Fatalf("with the CSRF header: %d %s", c.status, c.body)
	}
	expectError(t, h.do("DELETE", "/dashboard/session", "", "Cookie", cookie), 403, httperr.Forbidden)

	// The bearer API is unchanged, and a bearer request ignores a cookie
	// (it needs no CSRF header).
	bearer := h.signIn("owner@example.com", "correct horse battery staple")
	if c := h.do("POST", "/templates", tmpl, "Authorization", bearer, "Cookie", "__Host-idgate_session=garbage"); c.status != 201 {
		t.Fatalf("bearer with a stray cookie: %d %s", c.status, c.body)
	}
	// The session endpoints take only the cookie.
	expectError(t, h.do("GET", "/dashboard/session", "", "Authorization", bearer), 401, httperr.Unauthenticated)
	expectError(t, h.do("GET", "/dashboard/session", "", "Cookie", cookie, "X-API-Key", "idgk_x"), 403, httperr.Forbidden)

	// Sign-out ends the session server-side and clears the cookie.
	out := h.do("DELETE", "/dashboard/session", "", "Cookie", cookie, "X-CSRF-Token", s.CSRFToken)
	if out.status != 204 || !strings.Contains(out.header.Get("Set-Cookie"), "__Host-idgate_session=;") {
		t.Fatalf("sign-out: %d %v", out.status, out.header)
	}
	expectError(t, h.do("GET", "/me", "", "Cookie", cookie), 401, httperr.Unauthenticated)
	expectError(t, h.do("GET", "/dashboard/session", "", "Cookie", cookie), 401, httperr.Unauthenticated)
}

func TestDashboardSessionExpiry(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	cookie, _ := h.dashboardSignIn("owner@example.com", "correct horse battery staple")
	// Activity keeps it alive past the idle timeout...
	for i := 0; i < 5; i++ {
		h.clock.Advance(20 * time.Minute)
		if r := h.do("GET", "/me", "", "Cookie", cookie, "Idgate-Mode", "live"); r.status != 200 {
			t.Fatalf("after %d×20 min of activity: %d %s", i+1, r.status, r.body)
		}
	}
	// ...but not idleness.
	h.clock.Advance(31 * time.Minute)
	r := h.do("GET", "/me", "", "Cookie", cookie)
	expectError(t, r, 401, httperr.Unauthenticated)
	if !strings.Contains(r.header.Get("Set-Cookie"), "__Host-idgate_session=;") {
		t.Errorf("a dead session's cookie is not cleared: %v", r.header.Values("Set-Cookie"))
	}
	// Twelve hours is the limit whatever the activity.
	cookie, _ = h.dashboardSignIn("owner@example.com", "correct horse battery staple")
	for elapsed := time.Duration(0); elapsed < 12*time.Hour-20*time.Minute; elapsed += 20 * time.Minute {
		h.clock.Advance(20 * time.Minute)
		if r := h.do("GET", "/me", "", "Cookie", cookie, "Idgate-Mode", "live"); r.status != 200 {
			t.Fatalf("after %s of activity: %d", elapsed, r.status)
		}
	}
	h.clock.Advance(21 * time.Minute)
	expectError(t, h.do("GET", "/me", "", "Cookie", cookie), 401, httperr.Unauthenticated)
}

func TestDashboardSignInRefusals(t *testing.T) {
	h := newHarness(t)
	h.account("owner@example.com", "correct horse battery staple")
	wrong := h.do("POST", "/dashboard/session", `{"email":"owner@example.com","password":"wrong password!"}`)
	expectError(t, wrong, 401, httperr.Unauthenticated)
	if wrong.header.Get("Set-Cookie") != "" {
		t.Fatal("a failed sign-in set a cookie")
	}
	e := expectError(t, h.do("POST", "/dashboard/session", `{"email":"","password":""}`), 422, httperr.ValidationFailed)
	if len(e.Details) != 2 {
		t.Fatalf("details %+v", e.Details)
	}
	// Login CSRF: a cross-site request is refused, and so is a form post.
	expectError(t, h.do("POST", "/dashboard/session", `{"email":"owner@example.com","password":"correct horse battery staple"}`,
		"Sec-Fetch-Site", "cross-site"), 403, httperr.Forbidden)
	form := h.send("POST", "/dashboard/session", "application/x-www-form-urlencoded", []byte("email=owner%40example.com&password=x"))
	expectError(t, form, 415, httperr.UnsupportedMediaType)
	// The sign-in limit of POST /auth: 5 per minute per e-mail (one used above;
	// refusals before the password check do not count).
	for i := 0; i < 4; i++ {
		h.do("POST", "/dashboard/session", `{"email":"owner@example.com","password":"wrong password!"}`)
	}
	expectError(t, h.do("POST", "/dashboard/session", `{"email":"owner@example.com","password":"correct horse battery staple"}`), 429, httperr.RateLimited)
	// Malformed and unknown cookies are 401 without a lookup error.
	for _, c := range []string{"__Host-idgate_session=x", "__Host-idgate_session=" + strings.Repeat("A", 43), "__Host-idgate_session=" + strings.Repeat("é", 20)} {
		expectError(t, h.do("GET", "/dashboard/session", "", "Cookie", c), 401, httperr.Unauthenticated)
	}
}

func TestDashboardPageAndAssets(t *testing.T) {
	h := newHarness(t)
	r := h.do("GET", "/dashboard", "")
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %v", r.status, r.header)
	}
	csp := r.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "frame-ancestors 'none'", "connect-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || r.header.Get("Cache-Control") != "no-store" || r.header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("headers %v", r.header)
	}
	page := string(r.body)
	// The footer's credits link to the IP data's sources (their licences ask
	// for it; verifier/dashboard's test checks them); the rest names no other origin.
	head, _, _ := strings.Cut(page, `<footer class="credits">`)
	if strings.Contains(page, "<script>") || strings.Contains(page, "style=") || strings.Contains(head, "http") {
		t.Errorf("inline code or a foreign reference in the shell:\n%s", page)
	}
	for _, kind := range []string{".js", ".css"} {
		i := strings.Index(page, "/assets/dashboard-")
		for i >= 0 && !strings.HasPrefix(page[i+len("/assets/dashboard-")+16:], kind) {
			j := strings.Index(page[i+1:], "/assets/dashboard-")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			t.Fatalf("no %s asset in the shell", kind)
		}
		path := page[i : i+len("/assets/dashboard-")+16+len(kind)]
		a := h.do("GET", path, "")
		if a.status != 200 || a.header.Get("Cache-Control") != "public, max-age=31536000, immutable" || len(a.body) < 100 ||
			a.header.Get("Content-Security-Policy") == "" {
			t.Fatalf("GET %s: %d %v", path, a.status, a.header)
		}
	}
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(h.do("GET", "/openapi.json", "").body, &doc); err != nil || doc.Paths["/dashboard/session"] == nil {
		t.Fatalf("the session endpoints are not documented: %v", err)
	}
}
