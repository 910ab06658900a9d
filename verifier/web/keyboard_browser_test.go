package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/idgate/idgate/internal/testkit"
)

// focusNow describes the focused element and whether its focus shows: an
// outline on it, or on the visible label that follows a visually hidden
// file input (the license steps' "Take or choose a photo").
const focusNow = `(() => {
	const e = document.activeElement;
	if (!e || e === document.body) return {Name: "", Visible: false};
	const shown = e.classList.contains("vh") && e.nextElementSibling ? e.nextElementSibling : e;
	const cs = getComputedStyle(shown);
	const r = shown.getBoundingClientRect();
	const name = (e.tagName + " " + (e.getAttribute("aria-label") || shown.textContent || e.id || "")).trim().replace(/\s+/g, " ");
	return {Name: name, Visible: cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2 && r.width > 0 && r.height > 0};
})()`

type focused struct {
	Name    string
	Visible bool
}

// headingFocused waits until the screen's heading has focus: it takes it
// just after the screen is shown (app.ts says why).
func (tb *tab) headingFocused() {
	tb.T.Helper()
	tb.Wait(`document.activeElement && document.activeElement.matches("main h1")`)
}

// tabTo presses Tab until the focused element's name contains want (at
// most 15 presses), failing on any focused element whose focus does not
// show; it returns the names passed on the way, in order.
func (tb *tab) tabTo(want string) []string {
	tb.T.Helper()
	var order []string
	for range 15 {
		tb.Run(chromedp.KeyEvent(kb.Tab))
		f := eval[focused](tb, focusNow)
		order = append(order, f.Name)
		if f.Name != "" && !f.Visible {
			tb.T.Errorf("%s has focus, but nothing shows it", f.Name)
		}
		if strings.Contains(f.Name, want) {
			return order
		}
	}
	tb.T.Fatalf("no %q within 15 presses of Tab: %s", want, strings.Join(order, " → "))
	return nil
}

// The link's pages with the keyboard alone, on a computer without a
// camera: every control reached by Tab shows its focus, in reading order
// from the screen's heading, which each screen focuses; Start and the license
// steps' upload, the non-camera way to send each photo, work from the
// keyboard. (Chromium cannot drive its file dialog: the file is set on the
// input the keyboard focused, as the dialog would.)
func TestKeyboardOnlyInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	desk := newTab(t, false)
	c := e.create(`{}`)
	desk.Open(c.URL)
	desk.screen("start")
	// Each screen focuses its heading, so Tab goes on from there; the
	// language menu above it (its list, then Change) is Shift+Tab back, and
	// shows its focus.
	desk.headingFocused()
	for _, want := range []string{"BUTTON Change", "SELECT"} {
		desk.Run(chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		if f := eval[focused](desk, focusNow); !strings.HasPrefix(f.Name, want) || !f.Visible {
			t.Errorf("Shift+Tab back from the heading reached %q (focus shown: %v), not %s", f.Name, f.Visible, want)
		}
	}
	desk.tabTo("Continue on this computer")
	desk.Run(chromedp.KeyEvent(kb.Enter))

	for _, side := range []string{"front", "back"} {
		desk.screen(side)
		desk.headingFocused()
		desk.Wait(`!!document.querySelector(".status .alert")`) // no camera here: the upload is offered
		desk.tabTo("Take or choose a photo")
		if id := eval[string](desk, `document.activeElement.id`); id != "file-"+side {
			t.Fatalf("%s: the upload's focus is on #%s", side, id)
		}
		file := writeFile(t, side+".jpg", map[string][]byte{"front": front(t, foremanFace(t)), "back": back(t)}[side])
		desk.Run(chromedp.SetUploadFiles(fmt.Sprintf("#file-%s", side), []string{file}))
	}
	desk.screen("live")
	desk.Shoot("keyboard-live-intro")
}
