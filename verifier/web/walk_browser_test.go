package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// The live flow walked as a shopper walks it, on small phones: each test
// here pins one thing found wrong by walking it at 390×844 and 360×640 in
// English and Spanish. Screenshots go to var/screenshots/walk/.

// walkTab is a phone tab w×h CSS pixels (touch, scale 2) speaking lang,
// whose screenshots go to var/screenshots/walk/.
func walkTab(t *testing.T, w, h int, lang string, flags ...chromedp.ExecAllocatorOption) *tab {
	t.Helper()
	tb := newTab(t, true, flags...)
	tb.Shots = "walk"
	tb.language(lang)
	tb.Run(chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	return tb
}

// look shoots the page as it is to var/screenshots/walk/name.png, runs axe
// on it, and fails the test for what a shopper would trip on: a page wider
// than the screen or a visible control smaller than 44×44 px.
func (tb *tab) look(name string) {
	tb.T.Helper()
	tb.ShootHere(name)
	if w := eval[int](tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
		tb.T.Errorf("%s: the page is %d px wider than the screen", name, w)
	}
	small := eval[[]string](tb, `[...document.querySelectorAll("button, .button, a, input:not(.vh), select, summary")]
		.filter(e => e.offsetParent !== null)
		.filter(e => { const r = e.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
		.map(e => e.textContent.trim() || e.outerHTML.slice(0, 60))`)
	for _, s := range small {
		tb.T.Errorf("%s: %q is smaller than 44×44 px", name, s)
	}
}

// inView reports whether the element matched by the JavaScript expression
// el lies wholly inside the screen, as it is scrolled.
func (tb *tab) inView(el string) bool {
	tb.T.Helper()
	return eval[bool](tb, fmt.Sprintf(`(() => { const r = (%s).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; })()`, el))
}

// The same link open on two phones: the first still shows the back of the
// license while the second finished every step and was offered a review.
// The first phone's photo used to get the server's 409 and "Something
// went wrong. Please try again.", whose Try again sent it again into the
// same 409, for ever. It now reloads the session and shows where the link
// is: the review offer, whose answer finishes it.
func TestStaleSecondPhoneFollowsTheLinkInChromium(t *testing.T) {
	e := start(t)
	for _, lang := range []struct{ accept, offer, yes string }{
		{"en-US", "We could not confirm that the photos match", "Send for review"},
		{"es-MX,es;q=0.9", "No pudimos confirmar que las fotos coinciden", "Enviar a revisión"},
	} {
		c := e.create(`{}`)
		first := walkTab(t, 360, 640, lang.accept)
		first.Open(c.URL)
		first.screen("start")
		eval[bool](first, `document.querySelector(".actions button").click(), true`)
		first.screen("front")
		first.upload("front", writeFile(t, "front.jpg", front(t, foremanFace(t))))
		first.screen("back")
		// The other phone: every step and submit, with a license photo of
		// someone else, so the link waits at the review offer.
		e.throughAPI(c, otherFace(t))
		e.endUser(c, "/submit", "", nil, 200)

		first.upload("back", writeFile(t, "back.jpg", back(t)))
		contains(t, first.screen("review"), lang.offer, lang.yes)
		first.look("stale-phone-review-offer-" + lang.accept[:2] + "-360x640")
		first.click(lang.yes)
		first.screen("review-sent")
		if s := e.status(c.ID); s != "manual_review" {
			t.Fatalf("%s: verification is %s, want manual_review", lang.accept, s)
		}
	}
}
