package axe_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit/axe"
	"github.com/idgate/idgate/internal/testkit/chromium"
)

const page = `<!doctype html><html lang="en"><title>t</title><body>
<main><div id="good"><button type="button" style="padding:8px">Send</button><img src="x.png" alt="a cat"></div>
<div id="bad"><img src="x.png"><button type="button" style="width:44px;height:44px"></button></div>
<div id="host"></div></main>
<script>document.getElementById("host").attachShadow({mode: "open"}).innerHTML = '<input type="text">';</script>`

// Rules find what they should, inside shadow roots too, and stay quiet on
// correct markup; a second check does not inject axe-core again.
func TestCheck(t *testing.T) {
	ctx := chromium.New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("data:text/html,"+url.PathEscape(page))); err != nil {
		t.Fatal(err)
	}
	if vs := axe.Check(t, ctx, "#good"); len(vs) != 0 {
		t.Fatalf("correct markup has violations: %v", vs)
	}
	ids := func(sel string) string {
		var got []string
		for _, v := range axe.Check(t, ctx, sel) {
			got = append(got, v.ID)
		}
		return strings.Join(got, ",")
	}
	if got := ids("#bad"); got != "button-name,image-alt" {
		t.Fatalf("#bad: violations %q, want button-name,image-alt", got)
	}
	if got := ids("#host"); got != "label" {
		t.Fatalf("shadow root: violations %q, want label", got)
	}
	if got := ids(""); got != "button-name,image-alt,label" {
		t.Fatalf("document: violations %q", got)
	}
	vs := axe.Check(t, ctx, "#bad")
	if s := vs[0].String(); !strings.Contains(s, "button-name (critical)") || !strings.Contains(s, "<button") {
		t.Fatalf("violation reads %q", s)
	}
}
