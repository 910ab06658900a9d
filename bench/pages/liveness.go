package main

// The liveness step's budget: at Chromium's 4× CPU slowdown and at the
// slowdown that stands for a mid-tier phone on this host (-cpu,
// calibrate.go), side by side, with the "Fast 4G" network profile, cold
// (nothing cached), the time from
// "Start the video" to the first guidance the page shows (and to the
// head's pose, the mesh model loading after the detector), and how many
// frames a second the face tracker follows while the page records; for
// today's page with its tracker in a worker (as every browser with
// Worker, OffscreenCanvas and createImageBitmap runs it: Chrome on
// Android, Safari from 16.4), in a worker held to the slowdown, and on the
// page's own thread (the page without Worker, as on a browser that has
// none), and with the page paced without the tracker (its files blocked: what a
// phone that cannot load them gets), whose first guidance is its first
// cue. Chromium does not slow a worker down (workers.go: the probe
// printed first says whether it does); the plain worker's row then says
// so, and the held-back worker's row (workers.go, slowWorker) stands in
// for a phone's worker at the slowdown. The camera is Chromium's fake device
// playing Foreman (the liveness test clip) from a y4m file. Extra bytes
// are the tracker's files as served (gzip where the browser asks for it);
// each row also says what the page sent for the step (its frames' JPEGs),
// the upload a phone pays.

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/bench/internal/loopback"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/web"
	"github.com/idgate/idgate/verifier/web/tracker"
)

// liveRuns: even, so that each mode goes first in as many rounds.
const liveRuns = 4

// pageOnly runs only the row with the tracker on the page's thread (the
// one Chromium slows), its warm-up run too: a change to the page's
// tracking is judged there, batch against batch beside a scratch
// worktree's bench, in a quarter of the time.
var pageOnly = flag.Bool("page-only", false, "-only-liveness: only the row with the tracker on the page's thread")

// heldOnly runs only the held-back worker's rows (the path a phone takes),
// its warm-up run too: with -cores 2,8, one worker beside two, run by run.
var heldOnly = flag.Bool("held-only", false, "-only-liveness: only the rows with the tracker in a worker held back")

// liveCores is what navigator.hardwareConcurrency says in the worker rows:
// a phone's cores, not this host's (a mid-range Android phone has 8; the
// Pixel 5 that DevTools' mid-tier preset stands for has 8). From 4 the
// page starts a second tracker worker (src/tracker.ts, spareCores).
var liveCores = flag.String("cores", "8", "the cores the worker rows' page is told it has (navigator.hardwareConcurrency), comma-separated, a row each: 2,8 measures one tracker worker beside two")

// parseCores reads -cores.
func parseCores(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 1 || n > 256 {
			return nil, fmt.Errorf("-cores: %q is not a count of cores", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// livenessBudget runs the step's measurements on a second verifier, with
// the real engines (the challenge needs them), and prints them.
func livenessBudget(ctx context.Context, dir, chrome string) error {
	set, err := tracker.Files()
	if err != nil {
		return fmt.Errorf("liveness: %w", err)
	}
	var total int
	var parts []string
	for name, f := range set.Files {
		if strings.HasSuffix(name, ".wasm") && !strings.Contains(name, "simd") {
			continue // the plain build is for browsers without SIMD
		}
		total += len(f.Gzip)
		parts = append(parts, fmt.Sprintf("%s %d KB", name[:strings.LastIndex(name, "-")], len(f.Gzip)>>10))
	}
	// The worker that runs them (built with the page's script).
	assets, err := web.Assets()
	if err != nil {
		return fmt.Errorf("liveness: %w", err)
	}
	for p, a := range assets {
		if strings.HasPrefix(p, "/assets/tracker-worker-") {
			total += len(a.Gzip)
			parts = append(parts, fmt.Sprintf("tracker-worker %d KB", len(a.Gzip)>>10))
		}
	}
	sort.Strings(parts)
	fmt.Printf("liveness step: extra download with the tracker %d KB gzipped (%s); without it 0 KB\n", total>>10, strings.Join(parts, ", "))

	root, err := os.Getwd()
	if err != nil {
		return err
	}
	data := flowtest.Data{Repo: root}
	face, err := data.ForemanFace()
	if err != nil {
		return fmt.Errorf("liveness: %w (make testdata)", err)
	}
	front, err := flowtest.FrontPhoto(face, 2000, 1)
	if err != nil {
		return err
	}
	back, _, err := flowtest.BackPhoto(5, 0, 0)
	if err != nil {
		return err
	}
	y4m := filepath.Join(dir, "foreman.y4m")
	if err := foremanY4M(data, y4m); err != nil {
		return err
	}
	eng, err := engines.Load(engines.Config{})
	if err != nil {
		return err
	}
	liveDir := filepath.Join(dir, "live")
	if err := os.Mkdir(liveDir, 0o700); err != nil {
		return err
	}
	lv, err := loopback.Start(ctx, liveDir, eng)
	if err != nil {
		return err
	}
	defer lv.Close()
	base, bearer := lv.Base, lv.Bearer
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "live-profile")),
		chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", y4m))
	defer cancelAlloc()
	if err := profileCPU(alloc); err != nil {
		return err
	}
	if err := throttleProbe(alloc); err != nil {
		return err
	}
	today, err := web.Script()
	if err != nil {
		return err
	}
	type liveMode struct {
		name    string
		tracked bool
		// script is served in place of the page's script (serveScript):
		// nil leaves the page's.
		script []byte
		// inPage: the page has no Worker, so today's tracker runs on the
		// page's thread.
		inPage bool
		// slow: the worker's answers are held back to the CPU slowdown
		// (workers.go, slowWorker): the path a phone takes.
		slow bool
		// cores: what navigator.hardwareConcurrency says (-cores; 0: the
		// host's own, where no worker runs).
		cores int64
	}
	cores, err := parseCores(*liveCores)
	if err != nil {
		return err
	}
	var modes []liveMode
	for _, c := range cores {
		name := func(s string) string {
			if len(cores) > 1 {
				return fmt.Sprintf("%s, %d cores", s, c)
			}
			return s
		}
		modes = append(modes, liveMode{name("tracked, in a worker"), true, today.JS, false, false, c}, liveMode{name("tracked, in a worker held back"), true, today.JS, false, true, c})
	}
	modes = append(modes, liveMode{"tracked, on the page", true, today.JS, true, false, 0}, liveMode{"paced (tracker blocked)", false, nil, false, false, 0})
	// A row is a mode at one of -cpu's slowdowns (-thread and -first: the
	// first alone).
	type liveRow struct {
		liveMode
		rate float64
	}
	rates := cpuSlowdowns
	if threadTrace || *firstRuns > 0 {
		rates = rates[:1]
	}
	var rows []liveRow
	for _, rate := range rates {
		for _, m := range modes {
			rows = append(rows, liveRow{m, rate})
		}
	}
	// The rows take turns, run by run, each round in the other order, so
	// that a change in the machine's load, or going first, weighs on each
	// alike; round -1 is a warm-up, not counted (the browser's first tab
	// took 1.5× longer to its first guidance and 2× to the head's pose).
	got := make([][]liveMeasure, len(rows))
	runs := liveRuns
	if threadTrace {
		runs = 2
		if os.Getenv(traceDump) != "" {
			runs = 1
		}
	}
	if *firstRuns > 0 {
		runs = *firstRuns
	}
	for r := -1; r < runs; r++ {
		for k := range rows {
			i := k
			if r%2 != 0 {
				i = len(rows) - 1 - k
			}
			mode := rows[i]
			if r < 0 && (!mode.tracked || mode.inPage != *pageOnly || mode.slow != *heldOnly || mode.rate != rates[0] || (!mode.inPage && mode.cores != cores[0])) {
				continue
			}
			if (*pageOnly && !mode.inPage) || (*heldOnly && !mode.slow) {
				continue
			}
			// Traced, the rows whose page's thread does the tracking or
			// waits on a phone-speed worker.
			if threadTrace && !mode.inPage && !mode.slow {
				continue
			}
			if *firstRuns > 0 && (mode.inPage == *firstWorker || mode.slow || !mode.tracked) {
				continue
			}
			link, err := newLink(base, bearer)
			if err != nil {
				return err
			}
			tok := link[strings.LastIndex(link, "/v/")+3:]
			for _, step := range []struct {
				path string
				body []byte
			}{{"/license/front", front}, {"/license/back", back}} {
				resp, err := http.Post(base+"/v/"+tok+step.path, "image/jpeg", bytes.NewReader(step.body))
				if err != nil {
					return err
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					return fmt.Errorf("liveness: %s answered %d", step.path, resp.StatusCode)
				}
			}
			m, err := liveRun(alloc, link, mode.rate, mode.tracked, mode.inPage, mode.slow, mode.cores, mode.script)
			if err != nil {
				return fmt.Errorf("liveness %s at %g×: %w", mode.name, mode.rate, err)
			}
			if r >= 0 {
				got[i] = append(got[i], m)
			}
		}
	}
	med := func(ms []liveMeasure) liveMeasure {
		field := func(f func(liveMeasure) float64) float64 {
			var v []float64
			for _, m := range ms {
				v = append(v, f(m))
			}
			return median64(v)
		}
		return liveMeasure{first: field(func(m liveMeasure) float64 { return m.first }), posed: field(func(m liveMeasure) float64 { return m.posed }),
			fps: field(func(m liveMeasure) float64 { return m.fps }), turns: field(func(m liveMeasure) float64 { return m.turns }),
			still: field(func(m liveMeasure) float64 { return m.still }), eyes: field(func(m liveMeasure) float64 { return m.eyes }),
			gap: field(func(m liveMeasure) float64 { return m.gap }), lead: field(func(m liveMeasure) float64 { return m.lead }),
			sentKB: field(func(m liveMeasure) float64 { return m.sentKB }), sentFrames: field(func(m liveMeasure) float64 { return m.sentFrames }),
			sending: field(func(m liveMeasure) float64 { return m.sending }), carried: field(func(m liveMeasure) float64 { return m.carried })}
	}
	if *firstRuns > 0 {
		k := 2
		if *firstWorker {
			k = 0
		}
		return printFirst(got[k], rows[k].name)
	}
	if threadTrace {
		for i, mode := range rows {
			var shares [][]threadShare
			var spans []float64
			for _, m := range got[i] {
				shares, spans = append(shares, m.thread), append(spans, m.span)
			}
			if len(spans) > 0 {
				f := med(got[i])
				fmt.Printf("liveness step, %s: tracked %.1f fps (turns %.1f, lead-in and blink %.1f, with eyelids %.1f), carried box on %.0f%% of them, traced\n", mode.name, f.fps, f.turns, f.still, f.eyes, 100*f.carried)
				printThread(mode.name, shares, spans)
			}
		}
		return nil
	}
	for i, mode := range rows {
		if len(got[i]) == 0 {
			continue
		}
		if i%len(modes) == 0 {
			fmt.Printf("liveness step at %g× CPU slowdown:\n", mode.rate)
		}
		f := med(got[i])
		refused := 0
		for _, m := range got[i] {
			if m.stuttered {
				refused++
			}
		}
		if !mode.tracked {
			fmt.Printf("liveness step, %-24s first guidance median %5.0f ms (its first cue), sent %3.0f frames, %4.0f KB, answered %5.0f ms after sending began, refused as stuttered %d of %d; %g× CPU, Fast 4G, cold, %d runs\n",
				mode.name, f.first, f.sentFrames, f.sentKB, f.sending, refused, len(got[i]), mode.rate, liveRuns)
			continue
		}
		// Where the tracker ran (and on how many lanes: workers), and
		// whether Chromium slowed it there.
		where := map[string]int{}
		slowed, net := true, true
		for _, m := range got[i] {
			where[fmt.Sprintf("%s×%d", m.where, m.lanes)]++
			slowed = slowed && (m.where != "worker" || m.workerSlowed)
			net = net && (m.where != "worker" || m.workerNet)
		}
		fmt.Printf("liveness step, %-34s first guidance median %5.0f ms, head pose from %5.0f ms, tracked %4.1f fps (turns %4.1f, lead-in and blink %4.1f, of which with eyelids %4.1f)",
			mode.name, f.first, f.posed, f.fps, f.turns, f.still, f.eyes)
		if f.gap > 0 {
			fmt.Printf(", longest gap between recorded frames %3.0f ms", f.gap)
		}
		fmt.Printf(", carried box on %2.0f%% of them, lead-in %4.0f ms, sent %3.0f frames, %4.0f KB, answered %5.0f ms after sending began", 100*f.carried, f.lead, f.sentFrames, f.sentKB, f.sending)
		fmt.Printf(", refused as stuttered %d of %d", refused, len(got[i]))
		fmt.Printf("; ran in %v (where×lanes", where)
		if mode.cores > 0 {
			fmt.Printf(", told %d cores", mode.cores)
		}
		fmt.Printf(")")
		if mode.slow {
			fmt.Printf(" (its answers held back to %g× the worker's time: Chromium cannot slow a worker)", mode.rate)
		} else if !slowed {
			fmt.Printf(" (the worker NOT slowed: Chromium refused it the CPU slowdown; its figures are those of an unthrottled core)")
		}
		if !net {
			fmt.Printf(" (Chromium refused the worker Fast 4G)")
		}
		fmt.Printf("; targets ≤ 2000 ms, ≥ 10 fps; %g× CPU, Fast 4G, cold, %d runs\n", mode.rate, liveRuns)
	}
	return nil
}

// liveMeasure: ms from the click to the first guidance and to the first
// frame with the head's pose (the mesh model in); frames a second tracked
// while recording: in all, during the turns, and on the lead-in and the
// blink (still), and of those the frames with the eyelids; the longest
// gap between two recorded frames, ms (the page's data-gap; the server
// refuses more than 400 ms); and whether the server refused the frames'
// timing ("The video stuttered").
type liveMeasure struct {
	first, posed, fps, turns, still, eyes, gap float64
	// lead: ms from the first tracked frame of the recording to the first
	// cue (the lead-in waits for its posed frames: src/liveness.ts,
	// leadRest), by the sampler's 50 ms.
	lead float64
	// sentKB and sentFrames: what the page uploaded for the step (the
	// frames' JPEGs in the answer's form, sentBytes); sending: ms from the
	// page's "Sending" screen to the server's answer on screen (the
	// upload at Fast 4G's 1.35 Mbit/s, and the server's analysis).
	sentKB, sentFrames, sending float64
	// carried: the share of the frames tracked while recording that were
	// read on a box carried from an earlier frame (the stage's
	// data-carried: no detector run on them).
	carried   float64
	stuttered bool
	// where the tracker ran (the stage's data-tracker-in), on how many
	// lanes at most (data-lanes: workers side by side), and, in a worker,
	// whether Chromium took the CPU slowdown there.
	where                   string
	lanes                   int
	workerSlowed, workerNet bool
	// thread: the page's thread's work by kind over span ms of recording
	// (-thread only: thread.go).
	thread []threadShare
	span   float64
	// phases: ms from the click to each milestone of the first guidance
	// (-first only: first.go, phasesJS).
	phases map[string]float64
	// faults: the minor page faults of the browser's processes from the
	// click to the first guidance (printed by -first: faults.go).
	faults float64
}

// liveRun opens link at the liveness step in a fresh tab with the cache
// cleared, throttled (its workers too, where Chromium takes it), presses
// "Start the video" and measures; with script the page runs that script
// instead of today's; inPage takes Worker away from the page; slow holds
// the worker's answers back to the CPU slowdown (slowWorker); cores, where
// not 0, is what navigator.hardwareConcurrency says.
func liveRun(alloc context.Context, link string, rate float64, tracked, inPage, slow bool, cores int64, script []byte) (liveMeasure, error) {
	var m liveMeasure
	tab, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(tab, 2*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx); err != nil {
		return m, err
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		return m, err
	}
	if _, err := chromedp.Call(ctx, network.ClearBrowserCache, struct{}{}); err != nil {
		return m, err
	}
	net, slowdown := true, rate
	if *firstRuns > 0 {
		net, slowdown = *firstNet, firstSlowdown()
	}
	if net {
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{&loopback.Fast4G}}); err != nil {
			return m, err
		}
	}
	if !tracked {
		if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/assets/tracker-*", Block: true}}}); err != nil {
			return m, err
		}
	}
	if script != nil {
		if err := serveScript(ctx, script); err != nil {
			return m, err
		}
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: sentBytes}); err != nil {
		return m, err
	}
	if inPage || slow {
		src := "delete window.Worker;"
		if slow {
			src = slowWorker(slowdown)
		}
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
			return m, err
		}
	}
	if cores > 0 {
		if _, err := chromedp.Call(ctx, emulation.SetHardwareConcurrencyOverride, emulation.SetHardwareConcurrencyOverrideParams{HardwareConcurrency: cores}); err != nil {
			return m, err
		}
	}
	workers, err := throttleWorkers(ctx, slowdown, net)
	if err != nil {
		return m, err
	}
	if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: slowdown}); err != nil {
		return m, err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		return m, err
	}
	poll := func(expr string) (float64, error) {
		return chromedp.Run(ctx, chromedp.Poll[float64](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	}
	if _, err := poll(`document.querySelector('main[data-screen="live"] button') ? 1 : 0`); err != nil {
		return m, fmt.Errorf("liveness screen: %w", err)
	}
	// The click and the clock start together, in the page.
	first := `(() => { const s = document.querySelector(".stage"); return s && s.dataset.firstGuidance ? +s.dataset.firstGuidance : 0; })()`
	if !tracked {
		first = `(() => { const s = document.querySelector(".stage"); return s && s.dataset.step ? performance.now() - window.idgateBenchT0 : 0; })()`
	}
	browser := chromedp.FromContext(ctx).Browser.Process().Pid
	faults0, err := treeFaults(browser)
	if err != nil {
		return m, err
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.idgateBenchT0 = performance.now(), document.querySelector('main[data-screen="live"] button').click(), true)`)); err != nil {
		return m, err
	}
	if m.first, err = poll(first); err != nil {
		return m, fmt.Errorf("first guidance: %w", err)
	}
	faults, err := treeFaults(browser)
	if err != nil {
		return m, err
	}
	m.faults = float64(faults - faults0)
	if !tracked {
		return m, answered(ctx, &m)
	}
	if m.posed, err = poll(`(() => { const s = document.querySelector(".stage"); return s && s.dataset.firstPose ? +s.dataset.firstPose : 0; })()`); err != nil {
		return m, fmt.Errorf("head pose: %w", err)
	}
	if *firstRuns > 0 {
		m.phases, err = phasesOf(ctx)
		return m, err
	}
	if m.where, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".stage").dataset.trackerIn || "page"`)); err != nil {
		return m, err
	}
	m.workerSlowed, m.workerNet = workers.took()
	// Tracked rates while recording, from the page's own clock: every
	// 50 ms a sampler notes the frames tracked so far (and with eyelids)
	// and which cue is up; each interval counts for the phase it began in.
	// The challenge's order is random, so the rates are kept by phase (the
	// turns, where the pose alone is asked; the lead-in and the
	// blink, where the eyelids are asked) rather than over a window that
	// holds different steps from run to run.
	const sampler = `(() => { const log = (window.idgateBenchLog = []); const id = setInterval(() => {
		const s = document.querySelector(".stage"); const c = document.querySelector(".cue");
		if (!s || document.querySelector("main").dataset.screen !== "live-capture") return clearInterval(id);
		if (s.dataset.tracked) log.push([performance.now(), +s.dataset.tracked, +s.dataset.eyes, c && c.className.split(" ")[1] || "lead-in", +s.dataset.gap, +(s.dataset.carried || 0), +(s.dataset.lanes || 1)]); }, 50); return true; })()`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](sampler)); err != nil {
		return m, err
	}
	var trace *traced
	if threadTrace {
		if _, err := poll(`(() => { const s = document.querySelector(".stage"); return s && s.dataset.frames ? 1 : 0; })()`); err != nil {
			return m, fmt.Errorf("recording: %w", err)
		}
		if trace, err = startTrace(ctx); err != nil {
			return m, err
		}
	}
	if _, err := poll(`document.querySelector("main").dataset.screen !== "live-capture" ? 1 : 0`); err != nil {
		return m, fmt.Errorf("recording: %w", err)
	}
	if trace != nil {
		if m.thread, m.span, err = trace.stop(ctx); err != nil {
			return m, err
		}
	}
	samples, err := chromedp.Run(ctx, chromedp.Evaluate[[][7]any](`window.idgateBenchLog`))
	if err != nil {
		return m, err
	}
	var ms, done, eyes [3]float64 // by phase: all, turns, lead-in and blink
	for i := 0; i+1 < len(samples); i++ {
		a, b := samples[i], samples[i+1]
		dt, dn, de := b[0].(float64)-a[0].(float64), b[1].(float64)-a[1].(float64), b[2].(float64)-a[2].(float64)
		ph := 2
		if strings.HasPrefix(a[3].(string), "turn_") {
			ph = 1
		}
		for _, k := range []int{0, ph} {
			ms[k], done[k], eyes[k] = ms[k]+dt, done[k]+dn, eyes[k]+de
		}
	}
	perSecond := func(n, t float64) float64 {
		if t <= 0 {
			return 0
		}
		return n / t * 1000
	}
	m.fps, m.turns, m.still, m.eyes = perSecond(done[0], ms[0]), perSecond(done[1], ms[1]), perSecond(done[2], ms[2]), perSecond(eyes[2], ms[2])
	for _, x := range samples {
		if l, _ := x[6].(float64); int(l) > m.lanes {
			m.lanes = int(l)
		}
	}
	if n := len(samples); n > 0 {
		m.gap, _ = samples[n-1][4].(float64)
		if dn := samples[n-1][1].(float64) - samples[0][1].(float64); dn > 0 {
			m.carried = (samples[n-1][5].(float64) - samples[0][5].(float64)) / dn
		}
		for _, x := range samples {
			if x[3].(string) != "lead-in" {
				m.lead = x[0].(float64) - samples[0][0].(float64)
				break
			}
		}
	}
	return m, answered(ctx, &m)
}

// sentBytes, put in the page before its script runs, counts what the page
// uploads as files in a form (the liveness answer's frames, an
// XMLHttpRequest: api.ts, upload), and notes when the "Sending" screen
// came up and when the next screen did (every 20 ms).
const sentBytes = `(() => {
  const send = XMLHttpRequest.prototype.send;
  window.idgateBenchSent = { bytes: 0, files: 0, from: 0, to: 0 };
  const seen = setInterval(() => {
    const m = document.querySelector("main"), s = idgateBenchSent, screen = m && m.dataset.screen;
    if (screen === "live-sending" && !s.from) s.from = performance.now();
    else if (s.from && screen !== "live-sending") (s.to = performance.now(), clearInterval(seen));
  }, 20);
  XMLHttpRequest.prototype.send = function (b) {
    if (b instanceof FormData) for (const [, v] of b) if (v instanceof Blob) (idgateBenchSent.bytes += v.size, idgateBenchSent.files++);
    return send.apply(this, arguments);
  };
})();`

// answered waits for the server's answer and notes whether it refused the
// frames' timing and what the page sent.
func answered(ctx context.Context, m *liveMeasure) error {
	var err error
	if m.stuttered, err = stuttered(ctx); err != nil {
		return err
	}
	sent, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ Bytes, Files, From, To float64 }](`window.idgateBenchSent`))
	m.sentKB, m.sentFrames = sent.Bytes/1024, sent.Files
	if sent.From > 0 && sent.To > sent.From {
		m.sending = sent.To - sent.From
	}
	return err
}

// stuttered waits for the server's answer and says whether it refused
// the frames' timing, as the page says it (a gap over 400 ms, or under 8
// frames a second). A page that got no answer it could judge (its error
// screen: the upload cut off, say) fails the run with what it said.
func stuttered(ctx context.Context) (bool, error) {
	said, err := chromedp.Run(ctx, chromedp.Poll[string](fmt.Sprintf(`(() => { const m = document.querySelector("main");
		if (m.dataset.screen === "error") return "error: " + m.innerText.replace(/\s+/g, " ");
		return m.dataset.screen === "done" || m.dataset.screen === "live-failed" ? String(m.innerText.includes(%q)) : ""; })()`, web.T("en", "live.reason.frame_gap_too_long")),
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		return false, fmt.Errorf("the answer: %w", err)
	}
	if strings.HasPrefix(said, "error: ") {
		return false, fmt.Errorf("the answer: the page showed %q", said)
	}
	return said == "true", nil
}

// foremanY4M writes Foreman's frames 36–96 (facing the camera, the blink,
// both turns) and back, at 15 fps, as the fake camera's looping file.
func foremanY4M(d flowtest.Data, path string) error {
	var frames []image.Image
	for n := 36; n <= 96; n++ {
		raw, err := d.ForemanFrame(n)
		if err != nil {
			return err
		}
		img, err := jpeg.Decode(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		frames = append(frames, img)
	}
	for i := len(frames) - 2; i > 0; i-- {
		frames = append(frames, frames[i])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	b := frames[0].Bounds()
	fmt.Fprintf(w, "YUV4MPEG2 W%d H%d F15:1 Ip A1:1 C420jpeg\n", b.Dx(), b.Dy())
	for _, img := range frames {
		w.WriteString("FRAME\n")
		yuv := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				yy, cb, cr := rgbToYCbCr(r, g, bl)
				yuv.Y[yuv.YOffset(x, y)] = yy
				if x%2 == 0 && y%2 == 0 {
					yuv.Cb[yuv.COffset(x, y)], yuv.Cr[yuv.COffset(x, y)] = cb, cr
				}
			}
		}
		w.Write(yuv.Y)
		w.Write(yuv.Cb)
		w.Write(yuv.Cr)
	}
	return w.Flush()
}

func rgbToYCbCr(r, g, b uint32) (uint8, uint8, uint8) {
	return color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(b>>8))
}

func median64(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
