package dashboard

import (
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/dashboard/npmbundle"
	"github.com/idgate/idgate/verifier/ipintel"
)

func TestShellLoadsOnlyItsOwnAssets(t *testing.T) {
	page, err := Page()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := Assets()
	if err != nil {
		t.Fatal(err)
	}
	js, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	lazy := 0 // the passphrase module: the script loads it on first use
	if _, err := npmbundle.Passphrase(); err == nil {
		lazy = 1
	}
	if len(assets) != 2+lazy {
		t.Fatalf("%d assets, want the script, the stylesheet and %d lazily loaded", len(assets), lazy)
	}
	for path, a := range assets {
		if !strings.Contains(string(page), `"`+path+`"`) && !strings.Contains(string(js.JS), `"`+path+`"`) {
			t.Errorf("neither the shell nor its script loads %s", path)
		}
		if len(a.JS) == 0 || len(a.Gzip) == 0 || a.ETag == "" || !strings.HasPrefix(path, "/assets/dashboard-") {
			t.Errorf("asset %s: %d bytes, etag %q", path, len(a.JS), a.ETag)
		}
	}
	// The footer's credits are links the licences of the IP data ask for
	// (followed only when clicked); nothing else may name another origin.
	head, credits, found := strings.Cut(string(page), `<footer class="credits">`)
	if !found || !strings.Contains(credits, ipintel.AttributionHTML) {
		t.Errorf("the shell lacks the IP data's credits (ipintel.AttributionHTML):\n%s", page)
	}
	if strings.Count(credits, "<a ") != strings.Count(credits, `<a href="https://`) {
		t.Errorf("the credits hold something other than plain links:\n%s", credits)
	}
	for _, bad := range []string{"<script>", "style=", "http:", "https:", " on"} {
		if strings.Contains(head, bad) {
			t.Errorf("the shell contains %q (inline code or a foreign reference):\n%s", bad, page)
		}
	}
}

// The script stays small: no framework, no package code without a reason.
func TestScriptBudget(t *testing.T) {
	js, err := Script()
	if err != nil {
		t.Fatal(err)
	}
	const budget = 60 << 10 // gzipped, like the end-user pages
	if len(js.Gzip) > budget {
		t.Fatalf("dashboard script is %d bytes gzipped, budget %d", len(js.Gzip), budget)
	}
	t.Logf("dashboard script: %d bytes, %d gzipped", len(js.JS), len(js.Gzip))
}
