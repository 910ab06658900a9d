package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// Sign-in, the session across a reload, a foreign page's forged
// request refused for want of the CSRF token, sign-out.
func TestSignInCSRFAndSignOutInChromium(t *testing.T) {
	e := start(t)
	tb := newTab(t, e)
	tb.Run(chromedp.Navigate(e.URL + "/dashboard"))
	tb.Wait(`!!document.querySelector("form.signin")`)
	tb.Shoot("signin")

	// A wrong password is said plainly, and sets no cookie.
	tb.fill("E-mail", e.a.email)
	tb.fill("Password", "not the password")
	tb.click("Sign in")
	tb.WaitText("Wrong e-mail or password.")
	tb.Shoot("signin-wrong-password")
	if eval[bool](tb, `fetch("/dashboard/session").then(r => r.status === 200)`) {
		t.Fatal("a failed sign-in left a session")
	}

	tb.signIn(e.a)
	contains(t, tb.Text(), "Requests", "Review queue", "Templates", e.a.email, "Sign out")
	// The cookie is HttpOnly: the page's script cannot read it.
	if c := eval[string](tb, `document.cookie`); c != "" {
		t.Fatalf("document.cookie = %q", c)
	}
	// A reload keeps the session (the page reads its CSRF token again).
	tb.page("#/templates", "Templates")

	// A foreign page (another origin on this host, so same-site: only the
	// CSRF token stops it) posts a form to the API with the browser's
	// cookie.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><form id="f" method="POST" action="%s/templates" enctype="text/plain"><input name='{"name":"forged","x":"' value='"}'></form>
<script>document.getElementById("f").submit()</script>`, e.URL)
	}))
	defer evil.Close()
	tb.Run(chromedp.Navigate(evil.URL))
	tb.Wait(`location.href.endsWith("/templates") && document.body.innerText.includes("X-CSRF-Token")`)
	contains(t, tb.Text(), "FORBIDDEN")
	if list, err := e.store.ListTemplates(context.Background(), e.a.id); err != nil || len(list) != 0 {
		t.Fatalf("the forged request created %d templates (%v)", len(list), err)
	}
	// The same from the dashboard's own script, without the header: 403.
	tb.page("#/requests", "Requests")
	if s := eval[int](tb, `fetch("/templates", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"name":"x"}'}).then(r => r.status)`); s != 403 {
		t.Fatalf("POST without X-CSRF-Token from the page: %d, want 403", s)
	}

	// Sign-out ends the session on the server.
	tb.click("Sign out")
	tb.WaitText("You are signed out.")
	if s := eval[int](tb, `fetch("/me").then(r => r.status)`); s != 401 {
		t.Fatalf("GET /me after sign-out: %d, want 401", s)
	}
	tb.page("#/requests", "Sign in")
}
