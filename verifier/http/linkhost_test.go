package http

import (
	"strings"
	"testing"
)

// A link on a loopback or private address (IDGATE_PUBLIC_URL unset on a
// dev machine) names its host in the session, so the computer's page can
// say a phone cannot open its QR code; a public host is never named.
func TestSessionNamesUnreachableLinkHost(t *testing.T) {
	for _, c := range []struct{ publicURL, want string }{
		{testPublicURL, ""},
		{"http://127.0.0.1:8080", "127.0.0.1:8080"},
		{"http://[::1]:8080/", "[::1]:8080"},
		{"http://localhost:8080", "localhost:8080"},
		{"http://192.168.1.20:8080", "192.168.1.20:8080"},
		{"http://0.0.0.0:8080", "0.0.0.0:8080"},
		{"https://203.0.113.9", ""},
		{"https://id.shop.example", ""},
	} {
		t.Run(c.publicURL, func(t *testing.T) {
			h := newFlowHarness(t, openSQLite, func(d *Deps) { d.Config.PublicURL = c.publicURL })
			v := h.create(h.bearer, `{}`)
			_, tok, ok := strings.Cut(v.URL, "/v/")
			if !ok || !strings.HasPrefix(v.URL, strings.TrimSuffix(c.publicURL, "/")+"/v/") {
				t.Fatalf("link %q is not under %s", v.URL, c.publicURL)
			}
			if got := h.session(tok).UnreachableLinkHost; got != c.want {
				t.Fatalf("unreachable_link_host %q, want %q", got, c.want)
			}
		})
	}
}
