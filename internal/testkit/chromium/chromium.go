// Package chromium starts headless Chromium for browser tests (the widget,
// the end-user pages) through chromedp.
package chromium

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
)

// PhoneUA is a phone's user agent, so pages that ask take their phone
// path (no QR handoff).
const PhoneUA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"

// Phone emulates the phone screen every browser test looks at: 390×844
// CSS pixels at scale 2, mobile, with touch (so "(pointer: coarse)"
// matches and taps send touch events).
func Phone() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch)
}

// New starts headless Chromium (Debian's `chromium`) with a fresh profile
// and a 1000×800 window, and returns a tab's context, cancelled (with the
// browser stopped) when the test ends. extra adds or overrides flags (the
// end-user pages' tests feed a fake camera). Under CI=true a missing
// browser fails the test; elsewhere it skips loudly.
func New(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path := testkit.Tool(t, "chromium")
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 800),
	}, extra...)...,
	)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, tabLimit(t))
	t.Cleanup(func() { reportCPU(t, ctx); cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// tabLimit bounds a tab's life: 10 minutes (the end-user flow judges
// liveness twice, and tests share the CPU: t.Parallel, and CI's other
// package), but ending 30 s before the test binary's -timeout, so a
// stuck tab fails its own test, with its screenshots, instead of the
// binary panicking for the whole package. 5 minutes was hit once by the
// passport guide's full grid at load 15-19 (session 19).
func tabLimit(t testing.TB) time.Duration {
	limit := 10 * time.Minute
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, set := d.Deadline(); set {
			limit = min(limit, max(time.Until(end)-30*time.Second, 30*time.Second))
		}
	}
	return limit
}
