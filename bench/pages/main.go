// Command pages measures how soon the end user's first screen is usable
// (under 1 s on the demo): the time from navigating to a fresh
// link until its Start button is on screen, in headless Chromium against
// the real verifier on loopback (SQLite, the flow's session API; the first
// screen calls no engine). Cold runs clear the browser's cache first, so
// the script and stylesheet are fetched; warm runs reopen the link with
// them cached. The time is the page's own performance.now() at the first
// animation frame that shows the button, counted from navigation start.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/bench/internal/loopback"
	"github.com/idgate/idgate/verifier/web/tracker"
)

const runs = 10

// target is the budget for the first usable screen.
const target = time.Second

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/pages:", err)
		os.Exit(1)
	}
}

// onlyLiveness skips the first screen's runs (the liveness step takes
// most of the program's time; its own figures need none of them).
var onlyLiveness = flag.Bool("only-liveness", false, "measure the liveness step's budget only")

// onlyLevers measures the tracker's levers alone (levers.go; the whole
// run measures them last).
var onlyLevers = flag.Bool("levers", false, "measure the face tracker's levers only")

// goLevers measures the levers on the server's own pipeline alone (Go,
// no browser: leverbox.go).
var goLevers = flag.Bool("go-levers", false, "measure only the tracker's levers on the server's pipeline (no browser)")

// calibrateOnly prints the CPU calibration alone (calibrate.go; the
// liveness and lever rows print it first).
var calibrateOnly = flag.Bool("calibrate", false, "print only what the CPU slowdown stands for on this host (calibrate.go)")

// leverNamed keeps the browser's levers whose names contain it (each
// takes minutes at 4×).
var leverNamed = flag.String("lever", "", "measure only the levers whose names contain this")

func run() error {
	flag.BoolVar(&threadTrace, "thread", false, "trace the page's thread on the liveness step's tracked rows (thread.go)")
	flag.Parse()
	if threadTrace || *firstRuns > 0 {
		*onlyLiveness = true
	}
	if *goLevers {
		*onlyLevers = true
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "bench-pages")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path, err := exec.LookPath("chromium")
	if err != nil {
		return fmt.Errorf("chromium: %w", err)
	}
	if *calibrateOnly {
		alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
			chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "calibrate-profile")))
		defer cancelAlloc()
		return profileCPU(alloc)
	}
	if *onlyLevers {
		return levers(ctx, dir, path)
	}
	if *onlyLiveness {
		return liveness(ctx, dir, path)
	}
	v, err := loopback.Start(ctx, dir, nil)
	if err != nil {
		return err
	}
	defer v.Close()
	base, bearer := v.Base, v.Bearer
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "profile")))
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil {
		return err
	}
	var cold, warm []time.Duration
	for i := 0; i < runs; i++ {
		link, err := newLink(base, bearer)
		if err != nil {
			return err
		}
		if _, err := chromedp.Call(browser, network.ClearBrowserCache, cdp.Empty{}); err != nil {
			return err
		}
		d, err := firstScreen(browser, link)
		if err != nil {
			return err
		}
		cold = append(cold, d)
		if d, err = firstScreen(browser, link); err != nil {
			return err
		}
		warm = append(warm, d)
	}
	for _, r := range []struct {
		name string
		d    []time.Duration
	}{{"cold (nothing cached)", cold}, {"warm (assets cached)", warm}} {
		sort.Slice(r.d, func(i, j int) bool { return r.d[i] < r.d[j] })
		med, worst := r.d[len(r.d)/2], r.d[len(r.d)-1]
		verdict := "within"
		if worst > target {
			verdict = "OVER"
		}
		fmt.Printf("first screen usable, %-22s median %4d ms, worst %4d ms of %d: %s the %v target\n",
			r.name, med.Milliseconds(), worst.Milliseconds(), len(r.d), verdict, target)
	}
	cancelBrowser()
	if err := liveness(ctx, dir, path); err != nil {
		return err
	}
	return levers(ctx, dir, path)
}

func liveness(ctx context.Context, dir, chrome string) error {
	if err := livenessBudget(ctx, dir, chrome); errors.Is(err, tracker.ErrNotBuilt) {
		fmt.Println("liveness step: not measured:", err)
	} else if err != nil {
		return err
	}
	return nil
}

func levers(ctx context.Context, dir, chrome string) error {
	if err := leverBench(ctx, dir, chrome); errors.Is(err, tracker.ErrNotBuilt) {
		fmt.Println("tracker levers: not measured:", err)
	} else if err != nil {
		return err
	}
	return nil
}

// firstScreen opens link and returns the page's time to the Start button.
func firstScreen(tab context.Context, link string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		return 0, fmt.Errorf("navigate: %w", err)
	}
	ms, err := chromedp.Run(ctx, chromedp.Poll[float64](
		`document.querySelector('main[data-screen="start"] button') ? performance.now() : 0`, chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		return 0, fmt.Errorf("start screen: %w (page reads %q)", err, text)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

func newLink(base, bearer string) (string, error) {
	var v struct {
		URL string `json:"url"`
	}
	err := loopback.Post(base+"/verification", bearer, "application/json", []byte(`{"message":"Please verify your age before we ship.","requested_fields":["dob"],"encryption_key_mode":"none"}`), &v)
	return v.URL, err
}
