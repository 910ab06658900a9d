package chromium

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/axe"
)

// Tab is one tab of its own headless Chromium, with what every browser
// test does to a page: sizes, waits, screenshots, accessibility checks.
// Packages add their own page helpers on a type that embeds it.
type Tab struct {
	T   testing.TB
	Ctx context.Context
	// Shots is the folder under var/screenshots/ that Screenshot and Shoot
	// write to ("flow", "dashboard").
	Shots string
	// Phone is the size the tab is at between shots: a phone's
	// (390×844) or a computer's (1280×800). Shoot returns to it.
	Phone bool
	// Timeout bounds Wait (30 s when zero).
	Timeout time.Duration
}

// NewTab starts Chromium (flags: see New) and emulates a phone's or a
// computer's screen. A test that wants Chromium's own window (1000×800)
// builds a Tab on New's context itself.
func NewTab(t testing.TB, shots string, phone bool, flags ...chromedp.ExecAllocatorOption) *Tab {
	t.Helper()
	tb := &Tab{T: t, Ctx: New(t, flags...), Shots: shots, Phone: phone}
	tb.Size(phone)
	return tb
}

// Run runs actions in the tab, failing the test on an error.
func (tb *Tab) Run(actions ...chromedp.Action[chromedp.Void]) {
	tb.T.Helper()
	if err := chromedp.Do(tb.Ctx, actions...); err != nil {
		tb.T.Fatal(err)
	}
}

// Open navigates to url.
func (tb *Tab) Open(url string) {
	tb.T.Helper()
	tb.Run(chromedp.Navigate(url))
}

// Size emulates a phone's screen (Phone) or a computer's (1280×800).
func (tb *Tab) Size(phone bool) {
	tb.T.Helper()
	if phone {
		tb.Run(Phone())
	} else {
		tb.Run(chromedp.EmulateViewport(1280, 800))
	}
}

// Eval evaluates js in the page (awaiting it when it is a promise) and
// returns its value, failing the test on an error.
func Eval[T any](tb *Tab, js string) T {
	tb.T.Helper()
	v, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.T.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// Text is the page's visible text.
func (tb *Tab) Text() string {
	out, _ := chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`document.body.innerText`))
	return out
}

// Until polls expr every 100 ms until it is truthy and returns its value.
// A poll that fails before the timeout (a navigation replaced the page
// under it: a form's submit, a reload, a link followed) is started again
// on the page there is then.
func Until[T any](tb *Tab, expr string, timeout time.Duration) (T, error) {
	deadline := time.Now().Add(timeout)
	for {
		v, err := chromedp.Run(tb.Ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil || time.Now().After(deadline) || tb.Ctx.Err() != nil {
			return v, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Wait waits until the JavaScript condition cond is true, failing the test
// with the page's text when it stays false past the tab's Timeout.
func (tb *Tab) Wait(cond string) {
	tb.T.Helper()
	timeout := tb.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	if _, err := Until[bool](tb, cond, timeout); err != nil {
		tb.T.Fatalf("never true: %s: %v\npage reads:\n%s", cond, err, tb.Text())
	}
}

// WaitText waits until the page's text holds every one of want.
func (tb *Tab) WaitText(want ...string) {
	tb.T.Helper()
	var conds []string
	for _, w := range want {
		conds = append(conds, fmt.Sprintf("document.body.innerText.includes(%q)", w))
	}
	tb.Wait(strings.Join(conds, " && "))
}

// Screenshot writes the page as it is to var/screenshots/<Shots>/name.png:
// the whole page, or, when the page fits the window, the window, the same
// picture for a seventh of the browser's work (a full-page capture resizes
// the page to its whole height and lays it out and paints it again: 0.21 s
// of the browser's CPU against 0.03 s for a 360×640 phone page, measured
// 2026-11-30; the pages' tests take about 400 of them).
func (tb *Tab) Screenshot(name string) {
	tb.T.Helper()
	full := !Eval[bool](tb, `document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth && scrollX === 0 && scrollY === 0`)
	png, err := chromedp.Run(tb.Ctx, capture(full))
	if err != nil {
		tb.T.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join(testkit.RepoRoot(tb.T), "var", "screenshots", tb.Shots)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.T.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		tb.T.Fatal(err)
	}
}

// capture is a PNG of the window (full: of the whole page, as
// chromedp.FullScreenshot takes it), encoded for speed rather than size:
// zlib's fastest setting. The pages' and the dashboard's tests take about
// 340 screenshots a run; in the dashboard's tests one took 0.33 s on
// average with the default encoding and 0.28 s with this (2026-12-02's
// machine, 60 screenshots each way).
func capture(full bool) chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			FromSurface: new(true), CaptureBeyondViewport: new(full), Format: page.CaptureScreenshotFormatPng, OptimizeForSpeed: new(true),
		})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}
}

// Shoot writes the page at 390×844 and at 1280×800 (name-390x844.png,
// name-1280x800.png), for people to look at, and checks each with
// axe-core (WCAG A and AA); then it returns to the tab's size.
func (tb *Tab) Shoot(name string) {
	tb.T.Helper()
	for _, phone := range []bool{true, false} {
		tb.Size(phone)
		suffix := "1280x800"
		if phone {
			suffix = "390x844"
		}
		tb.ShootHere(name + "-" + suffix)
	}
	tb.Size(tb.Phone)
}

// ShootHere writes the page at the size it is (Screenshot) and checks it
// with axe-core (WCAG A and AA).
func (tb *Tab) ShootHere(name string) {
	tb.T.Helper()
	tb.Screenshot(name)
	if vs := axe.Check(tb.T, tb.Ctx, ""); len(vs) != 0 {
		tb.T.Errorf("%s: %d accessibility violations:\n%v", name, len(vs), vs)
	}
}

// Contains fails the test (without stopping it) for each of want that the
// page's text lacks.
func Contains(t testing.TB, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("page lacks %q; it reads:\n%s", w, text)
		}
	}
}
