package main

// The tracker's levers (go run ./bench/pages -levers): what each way of
// doing less per frame costs and what it does to the page's readings
// against the server's. The page's tracker (its own step and pose code:
// levers.ts) runs on the page's thread of a tab at Chromium's 4× CPU
// slowdown over the real clips' frames (../shared/testdata/liveness/real
// via var/testdata, and Foreman), each frame as the lever's plan says:
// with the detector or on the last frame's detector box, carried where
// the tracker carries it (facetrack.ts, carryMs), with the eyelids or
// without. (Human's kept box, which the page ran before it ran the models
// itself, is measured on the server's pipeline: leverbox.go.) The server's analyser
// (verifier/face/liveness, the detector on every frame) reads the same
// JPEGs. Printed per lever: ms per frame (the tracker alone, nothing else
// on the thread), the yaw's disagreement per frame and at each turn's
// peak, where the page decides "done" (trackersteps.ts: the server's
// angle + margin), and the eyelids' disagreement; and the page's
// straight-ahead against the server's (straight.go).

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io/fs"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/bundle"
	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/gifplay"
	"github.com/idgate/idgate/verifier/face"
	facelive "github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/web/tracker"
)

//go:embed levers.ts
var leversTS []byte

// clip is a sequence of frames as the page would track them, about 10 a
// second (the rate the tracker keeps at best), with its labelled turns.
type clip struct {
	name   string
	frames [][]byte
	// turns: index ranges (inclusive) of the frames of each labelled
	// turn, and its side (+1 the person's left: yaw > 0).
	turns []turnSpan
}

// clipFrameMs is how far apart a clip's frames were taken.
const clipFrameMs = 100

type turnSpan struct {
	from, to, side int
}

// lever is one way of tracking a clip: the detector on every det-th
// frame, the eyelids on every eyes-th (0: never); blinks: run on the
// blink clips (the eyelids' disagreement), else on the turn clips (the
// yaw's). The tracker carries the detector's box unmoved to the frame
// after, within carryMs (facetrack.ts): at the clips' 100 ms apart, a
// detector every 3rd frame would run on the 3rd anyway.
type lever struct {
	name      string
	det, eyes int
	blinks    bool
}

var leverPlans = []lever{
	{"detector every frame", 1, 0, false},
	{"detector every 2nd frame (the turns)", 2, 0, false},
	{"detector and eyelids every frame", 1, 1, true},
	{"detector every 2nd, eyelids every frame (the blink)", 2, 1, true},
}

func leverBench(ctx context.Context, dir, chrome string) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	clips, err := leverClips(root)
	if err != nil {
		return fmt.Errorf("levers: %w (make testdata)", err)
	}
	// The server's readings.
	_, an, err := facelive.Load("", face.DefaultOptions, facelive.Defaults)
	if err != nil {
		return err
	}
	server := map[string][]reading{}
	for _, c := range clips {
		for _, f := range c.frames {
			s, err := an.Frame(facelive.Frame{Data: f})
			if err != nil {
				return err
			}
			server[c.name] = append(server[c.name], reading{found: s.Faces > 0, yaw: s.Pose.Yaw, eyes: s.Eyes.Mean()})
		}
	}
	if err := boxLevers(an, clips); err != nil {
		return err
	}
	if err := carrySpacings(an, root); err != nil {
		return err
	}
	if *goLevers {
		return nil
	}
	srv, err := leverServer(root)
	if err != nil {
		return fmt.Errorf("levers: %w", err)
	}
	defer srv.Close()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(filepath.Join(dir, "levers-profile")))
	defer cancelAlloc()
	if err := profileCPU(alloc); err != nil {
		return err
	}
	tab, cancel := chromedp.NewContext(alloc)
	defer cancel()
	tctx, cancelT := context.WithTimeout(tab, 30*time.Minute)
	defer cancelT()
	if err := chromedp.Do(tctx, chromedp.Navigate(srv.URL)); err != nil {
		return err
	}
	if _, err := chromedp.Run(tctx, chromedp.Poll[bool](`window.idgateLeversReady === true`, chromedp.WithPollingTimeout(3*time.Minute))); err != nil {
		return fmt.Errorf("levers: the page's tracker did not start: %w", err)
	}
	if _, err := chromedp.Call(tctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: cpuSlowdown}); err != nil {
		return err
	}
	fmt.Printf("tracker levers: the page's tracker on the page's thread at %g× CPU slowdown, beside the server's analyser on the same frames (%s)\n", cpuSlowdown, clipNames(clips))
	// fellBack counts a lever's frames asked on a carried box on which the
	// detector ran all the same (the box failed its checks: facetrack.ts).
	var fellBack int
	// track runs a lever's plan over a clip and returns its readings, each
	// frame's ms (the first frame, a new face, not timed) and whether the
	// detector ran on it (asked, or fallen back to).
	track := func(l lever, c clip) ([]reading, []float64, []bool, error) {
		if err := decodeClip(tctx, c); err != nil {
			return nil, nil, nil, err
		}
		det, eyes := make([]bool, len(c.frames)), make([]bool, len(c.frames))
		for i := range c.frames {
			det[i] = i%l.det == 0
			eyes[i] = l.eyes > 0 && i%l.eyes == 0
		}
		call := fmt.Sprintf(`L.runTracker(%s, %s, %d)`, jsonOf(det), jsonOf(eyes), clipFrameMs)
		got, err := chromedp.Run(tctx, chromedp.Evaluate[[][5]any](call+`.then(r => r.map(x => x.map(v => typeof v === "number" && isNaN(v) ? null : v)))`, chromedp.EvalAwaitPromise))
		if err != nil {
			return nil, nil, nil, err
		}
		var rs []reading
		var ms []float64
		asked := slices.Clone(det)
		for i, g := range got {
			t, _ := g[0].(float64)
			det[i] = g[4] == true
			if det[i] && !asked[i] {
				fellBack++
			}
			rs = append(rs, reading{found: g[1] == true, yaw: num(g[2]), eyes: num(g[3])})
			ms = append(ms, t)
		}
		ms[0] = math.NaN()
		return rs, ms, det, nil
	}
	// A warm-up pass (TensorFlow.js's first runs of each model are slower).
	if _, _, _, err := track(leverPlans[len(leverPlans)-1], clips[0]); err != nil {
		return err
	}
	if strings.Contains("own step by stage", *leverNamed) {
		if err := stageCosts(tctx, clips[0]); err != nil {
			return err
		}
	}
	// Only when named: the detectors' rows take 8–10 minutes.
	if *leverNamed != "" && strings.Contains("detectors", *leverNamed) {
		if err := detectorRows(tctx, clips, server); err != nil {
			return err
		}
	}
	// The page's straight-ahead against the server's (straight.go): the
	// page's yaw of every frame, the detector on each.
	if strings.Contains("straight", *leverNamed) {
		page := map[string][]reading{}
		for _, c := range clips {
			if page[c.name], _, _, err = track(lever{det: 1}, c); err != nil {
				return err
			}
		}
		if err := straightRows(root, clips, server, page); err != nil {
			return err
		}
	}
	for _, l := range leverPlans {
		if !strings.Contains(l.name, *leverNamed) {
			continue
		}
		page := map[string][]reading{}
		var ms, detMs, reuseMs []float64
		fellBack = 0
		for _, c := range clips {
			if (len(c.turns) == 0) != l.blinks {
				continue
			}
			rs, t, det, err := track(l, c)
			if err != nil {
				return err
			}
			page[c.name] = rs
			for i := 1; i < len(t); i++ {
				ms = append(ms, t[i])
				if det[i] {
					detMs = append(detMs, t[i])
				} else {
					reuseMs = append(reuseMs, t[i])
				}
			}
		}
		printLever(l, clips, server, page, ms, detMs, reuseMs, fellBack)
	}
	return nil
}

// decodeClip has the harness page decode a clip's frames (L.decode).
func decodeClip(tctx context.Context, c clip) error {
	urls := make([]string, len(c.frames))
	for i, f := range c.frames {
		urls[i] = "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(f)
	}
	_, err := chromedp.Run(tctx, chromedp.Evaluate[float64](fmt.Sprintf(`L.decode(%s)`, jsonOf(urls)), chromedp.EvalAwaitPromise))
	return err
}

func clipNames(clips []clip) string {
	var s []string
	for _, c := range clips {
		s = append(s, fmt.Sprintf("%s %d", c.name, len(c.frames)))
	}
	return strings.Join(s, ", ")
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func num(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}

// reading is one frame's face as one side read it.
type reading struct {
	found     bool
	yaw, eyes float64
}

// printLever prints a lever's cost and disagreement. Turn frames are those
// the server reads 8° or more from the clip's straight-ahead (the median
// of its frames under 20°); the peak is each labelled turn's furthest yaw
// in its direction, page minus server (> 0: the page saw the turn further
// than the server will: with the page's 1° margin (trackersteps.ts) a
// peak over by more than 1° can end a step the server finds short).
func printLever(l lever, clips []clip, server, page map[string][]reading, ms, detMs, reuseMs []float64, fellBack int) {
	var still, turning, eyeDiff []float64
	var peaks []string
	worst := math.Inf(-1)
	missed := 0
	var blinks []string
	var shareDiffs, nearDiffs []float64
	leastOpen := math.Inf(1)
	deepest, deepestBy := "", math.Inf(1)
	for _, c := range clips {
		s, p := server[c.name], page[c.name]
		if p == nil {
			continue
		}
		straight := straightOf(s)
		if l.blinks {
			b := sharesOf(s, p, straight)
			shareDiffs, nearDiffs = append(shareDiffs, b.diffs...), append(nearDiffs, b.near...)
			if len(b.diffs) > 0 && slices.Min(b.diffs) < deepestBy {
				deepest, deepestBy = c.name+" "+b.deepest, slices.Min(b.diffs)
			}
			leastOpen = math.Min(leastOpen, b.leastOpen)
			blinks = append(blinks, fmt.Sprintf("%s %.2f/%.2f", c.name, b.leastPage, b.leastSrvr))
		}
		for i := range s {
			if !s[i].found || !p[i].found {
				if s[i].found != p[i].found {
					missed++
				}
				continue
			}
			d := math.Abs(p[i].yaw - s[i].yaw)
			if math.Abs(s[i].yaw-straight) >= 8 {
				turning = append(turning, d)
			} else {
				still = append(still, d)
			}
			if !math.IsNaN(p[i].eyes) && math.Abs(s[i].yaw-straight) <= 20 {
				eyeDiff = append(eyeDiff, math.Abs(p[i].eyes-s[i].eyes))
			}
		}
		for _, t := range c.turns {
			sp, pp := math.Inf(-1), math.Inf(-1)
			for i := t.from; i <= t.to && i < len(s); i++ {
				if s[i].found {
					sp = math.Max(sp, float64(t.side)*s[i].yaw)
				}
				if p[i].found {
					pp = math.Max(pp, float64(t.side)*p[i].yaw)
				}
			}
			peaks = append(peaks, fmt.Sprintf("%+.1f", pp-sp))
			worst = math.Max(worst, pp-sp)
		}
	}
	// A frame's time by the medians of each kind, weighted by how many of
	// each the plan has: robust to the load of a shared machine, whose
	// stalls the mean takes in.
	per := median64or0(detMs)
	if len(reuseMs) > 0 {
		per = (per*float64(len(detMs)) + median64or0(reuseMs)*float64(len(reuseMs))) / float64(len(detMs)+len(reuseMs))
	}
	fmt.Printf("  %-56s %4.0f ms a frame (%4.1f fps; median with the detector %3.0f ms, on a carried box %3.0f ms; mean %4.0f ms; %d frames asked on a carried box fell back to the detector, %d stayed on it)",
		l.name, per, 1000/per, median64or0(detMs), median64or0(reuseMs), mean(ms), fellBack, len(reuseMs))
	fmt.Printf("; yaw off the server's: still median %.1f° p90 %.1f°", median64or0(still), pct(still, 0.9))
	if !l.blinks {
		fmt.Printf(", turning median %.1f° p90 %.1f° max %.1f°; turn peaks page−server %s (worst %+.1f°)",
			median64or0(turning), pct(turning, 0.9), pct(turning, 1), strings.Join(peaks, " "), worst)
	}
	if len(eyeDiff) > 0 {
		fmt.Printf("; eye ratio off median %.3f p90 %.3f (%d frames)", median64or0(eyeDiff), pct(eyeDiff, 0.9), len(eyeDiff))
		neg := make([]float64, len(shareDiffs))
		for i, d := range shareDiffs {
			neg[i] = -d
		}
		fmt.Printf("; eyes as a share of the open baseline, page − server: median %+.3f, deepest %+.3f (%s page/server), p90 of page deeper %+.3f (%d frames); where the server reads open by less than 0.1 over its close ratio %.2f (%d frames) page − server %+.3f to %+.3f; the page's least share where the server reads open %.3f; least shares (clip page/server) %s",
			median64or0(shareDiffs), -pct(neg, 1), deepest, -pct(neg, 0.9), len(shareDiffs), facelive.Defaults.CloseRatio, len(nearDiffs), pct(nearDiffs, 0), pct(nearDiffs, 1), leastOpen, strings.Join(blinks, ", "))
	}
	fmt.Printf("; face found by one side only %d\n", missed)
}

// eyeShares is each frame's eye ratio as a share of its open-eye
// baseline, as the page and the server judge a blink: the median of the
// (up to) 10 frames before it read within 20° of the clip's
// straight-ahead (the second before, at 10 frames a second; the server's
// yaw decides for both sides), NaN where fewer than 4 were read or the
// frame's own eyes were not.
func eyeShares(r, server []reading, straight float64) []float64 {
	out := make([]float64, len(r))
	ok := func(i int) bool {
		return r[i].found && !math.IsNaN(r[i].eyes) && server[i].found && math.Abs(server[i].yaw-straight) <= 20
	}
	for i := range r {
		out[i] = math.NaN()
		var base []float64
		for j := max(0, i-10); j < i; j++ {
			if ok(j) {
				base = append(base, r[j].eyes)
			}
		}
		if ok(i) && len(base) >= 4 {
			out[i] = r[i].eyes / median64(base)
		}
	}
	return out
}

// blinkShares compares the two sides' eye shares on a clip: each frame's
// page − server, the page's least share where the server reads the eyes
// open (at or over its close ratio: the page must not call those closed),
// and each side's least share.
// near: the frames the server reads open by less than 0.1 over its close
// ratio, where a page deeper than the server could call closed what the
// server reads open;
// deepest: the frame where the page read deepest against the server.
type blinkShares struct {
	diffs, near          []float64
	leastOpen            float64
	leastPage, leastSrvr float64
	deepest              string
}

func sharesOf(s, p []reading, straight float64) blinkShares {
	ps, ss := eyeShares(p, s, straight), eyeShares(s, s, straight)
	b := blinkShares{leastOpen: math.Inf(1), leastPage: math.Inf(1), leastSrvr: math.Inf(1)}
	for i := range ps {
		if !math.IsNaN(ss[i]) {
			b.leastSrvr = math.Min(b.leastSrvr, ss[i])
		}
		if math.IsNaN(ps[i]) {
			continue
		}
		b.leastPage = math.Min(b.leastPage, ps[i])
		if math.IsNaN(ss[i]) {
			continue
		}
		d := ps[i] - ss[i]
		if len(b.diffs) == 0 || d < slices.Min(b.diffs) {
			b.deepest = fmt.Sprintf("frame %d: %.2f/%.2f", i, ps[i], ss[i])
		}
		b.diffs = append(b.diffs, d)
		if ss[i] >= facelive.Defaults.CloseRatio && ss[i] < facelive.Defaults.CloseRatio+0.1 {
			b.near = append(b.near, d)
		}
		if ss[i] >= facelive.Defaults.CloseRatio {
			b.leastOpen = math.Min(b.leastOpen, ps[i])
		}
	}
	return b
}

// straightOf is the median yaw of the server's face frames within 20°.
func straightOf(s []reading) float64 {
	var v []float64
	for _, r := range s {
		if r.found && math.Abs(r.yaw) <= 20 {
			v = append(v, r.yaw)
		}
	}
	return median64or0(v)
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func median64or0(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return median64(v)
}

// pct is the q-quantile of v (nearest rank).
func pct(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[int(math.Min(float64(len(s)-1), math.Ceil(q*float64(len(s)))-1+1e-9))]
}

// leverServer serves the harness page: levers.ts bundled with the page's
// sources as the global L, and the tracker's files under /assets/.
func leverServer(root string) (*httptest.Server, error) {
	set, err := tracker.Files()
	if err != nil {
		return nil, err
	}
	web := filepath.Join(root, "verifier", "web")
	src := fstest.MapFS{"levers.ts": {Data: leversTS}}
	names, err := fs.Glob(os.DirFS(web), "src/*.ts")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(web, n))
		if err != nil {
			return nil, err
		}
		src[n] = &fstest.MapFile{Data: b}
	}
	js, err := bundle.Build(bundle.Options{Sources: src, Entry: "levers.ts", GlobalName: "L"})
	if err != nil {
		return nil, fmt.Errorf("levers: %w", err)
	}
	files, err := json.Marshal(set.Config)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	if err := serveCandidates(mux); err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><script src="/levers.js"></script><script src="%s"></script>
<script>L.start(window.idgateTF, %s).then(() => (window.idgateLeversReady = true), (e) => (window.idgateLeversReady = String(e)));</script>`, set.Config.Lib, files)
	})
	mux.HandleFunc("GET /levers.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(js.JS)
	})
	mux.HandleFunc("GET /assets/{name}", func(w http.ResponseWriter, r *http.Request) {
		f, ok := set.Files[r.PathValue("name")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", f.ContentType)
		w.Write(f.JS)
	})
	return httptest.NewServer(mux), nil
}

// leverClips are the real clips at about 10 frames a second: smartlive
// (flipped: a mirrored preview) frames 1–118, its prompted session, with
// its left turn (35–50), partial right turn (70–82) and right turn
// (95–104), and the blink at the GIF's own frame times (his eyes are shut
// for 70 ms, 10.8–11.4 s); intel_hp_female (held right, then her left
// turn 8–15); Foreman 36–96 (facing, blink, both turns; every 3rd of
// 30 fps frames); the six GRID clips (blinks); testdata/people's webcam
// man's three blinks and a GRID speaker's lowered gaze (below).
func leverClips(root string) ([]clip, error) {
	find := func(elem ...string) (string, error) { return testkit.FindData(root, elem...) }
	clips, err := turnClips(root, clipFrameMs*time.Millisecond)
	if err != nil {
		return nil, err
	}
	smart, err := find("testdata", "liveness", "real", "smartlive.gif")
	if err != nil {
		return nil, err
	}
	fr, err := gifAt(smart, true, nil, 10500*time.Millisecond, 11600*time.Millisecond)
	if err != nil {
		return nil, err
	}
	clips = append(clips, clip{name: "smartlive blink", frames: fr})
	// 10 fps frames from..to of a clip of a set (liveness/real or people).
	frames := func(set, name string, from, to int) ([][]byte, error) {
		var out [][]byte
		for n := from; n <= to; n++ {
			b, err := readFrame(root, set, name, n)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
		return out, nil
	}
	for _, g := range []string{"grid_bbaf2n", "grid_brbk7n", "grid_lbax4n", "grid_pwij3p", "grid_id2_swwp2s", "grid_sbwe5n"} {
		gf, err := frames("liveness/real", g, 1, 30)
		if err != nil {
			return nil, err
		}
		clips = append(clips, clip{name: g, frames: gf})
	}
	// testdata/people (bench/liveness/people.go has the labels): the webcam
	// man's three blinks (one running into a downward look) and a GRID
	// speaker lowering her gaze (lids half down, no blink): eyes the server
	// must not call closed, nor the page. A checkout without a clip's
	// frames (the set comes from GitHub, not the mirror; an MP4's frames
	// need ffmpeg: scripts/testdata.sh, whose sign of a clip is its
	// f030.jpg) goes on without it, and says so.
	for _, w := range []struct {
		name     string
		from, to int
	}{{"clm_cap12", 240, 275}, {"clm_cap13", 25, 60}, {"clm_cap13", 155, 185}, {"grid_lrwp9a", 1, 30}} {
		sign, err := find("testdata", "people", w.name, "f030.jpg")
		if err == nil {
			_, err = os.Stat(sign)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "levers: %v: %s %d–%d left out\n", err, w.name, w.from, w.to)
			continue
		}
		fr, err := frames("people", w.name, w.from, w.to)
		if err != nil {
			return nil, err
		}
		clips = append(clips, clip{name: fmt.Sprintf("%s %d–%d", w.name, w.from, w.to), frames: fr})
	}
	return clips, nil
}

// turnClips are the real clips with labelled turns, a frame every apart
// (100 ms: the levers' 10 a second; other spacings: how long a carried
// box holds, leverbox.go): smartlive at three phases of the sampling (0,
// a third and two thirds of apart), intel_hp_female, and Foreman (30 fps)
// every apart/33 ms from each of its first frames. Turns are labelled by
// time, so each spacing's frames keep the same turns.
func turnClips(root string, apart time.Duration) ([]clip, error) {
	find := func(elem ...string) (string, error) { return testkit.FindData(root, elem...) }
	// span is the frames of at within from..to.
	span := func(at []time.Duration, from, to time.Duration, side int) turnSpan {
		t := turnSpan{-1, -1, side}
		for k, a := range at {
			if a >= from && a <= to {
				if t.from < 0 {
					t.from = k
				}
				t.to = k
			}
		}
		return t
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var clips []clip
	smart, err := find("testdata", "liveness", "real", "smartlive.gif")
	if err != nil {
		return nil, err
	}
	// smartlive's turns, 3.4–4.9 s (his left), 6.9–8.1 s and 9.4–10.3 s.
	for p := 0; p < 3; p++ {
		phase := (apart * time.Duration(p) / 3).Round(time.Millisecond)
		var at []time.Duration
		for t := phase; t <= ms(11700)+phase; t += apart {
			at = append(at, t)
		}
		fr, err := gifAt(smart, true, at, 0, 0)
		if err != nil {
			return nil, err
		}
		clips = append(clips, clip{name: fmt.Sprintf("smartlive+%dms", phase.Milliseconds()), frames: fr,
			turns: []turnSpan{span(at, ms(3400)+phase, ms(4900)+phase, 1), span(at, ms(6900)+phase, ms(8100)+phase, -1), span(at, ms(9400)+phase, ms(10300)+phase, -1)}})
	}
	intel, err := find("testdata", "liveness", "real", "intel_hp_female.gif")
	if err != nil {
		return nil, err
	}
	// Her turn, 0.7–1.4 s.
	var at []time.Duration
	for t := time.Duration(0); t <= ms(1800); t += apart {
		at = append(at, t)
	}
	fr, err := gifAt(intel, false, at, 0, 0)
	if err != nil {
		return nil, err
	}
	clips = append(clips, clip{name: "intel_hp_female", frames: fr, turns: []turnSpan{span(at, ms(700), ms(1400), 1)}})
	// Foreman every step-th frame from 36, 37 and 38: his left turn 68–82
	// and right turn 83–93 (verifier/face/liveness's labels).
	step := int((apart + 16*time.Millisecond) / (100 * time.Millisecond / 3))
	for start := 36; start < 36+min(step, 3); start++ {
		var fm [][]byte
		var nums []time.Duration
		for n := start; n <= 96; n += step {
			b, err := readFrame(root, "liveness", "foreman", n)
			if err != nil {
				return nil, err
			}
			fm = append(fm, b)
			nums = append(nums, ms(n))
		}
		clips = append(clips, clip{name: fmt.Sprintf("foreman from %d", start), frames: fm, turns: []turnSpan{span(nums, ms(68), ms(82), 1), span(nums, ms(83), ms(93), -1)}})
	}
	return clips, nil
}

// gifAt decodes a GIF as a browser plays it (a delay under 2/100 s
// shown for 1/10 s) and returns, as JPEGs, the frame on screen at each
// time of at, or, with at nil, every frame shown from..to at its own
// time; flipped mirrors each left to right.
func gifAt(path string, flipped bool, at []time.Duration, from, to time.Duration) ([][]byte, error) {
	var out [][]byte
	k := 0
	err := gifplay.Play(path, func(f gifplay.Frame) error {
		take := 0
		if at == nil {
			if f.Next > from && f.At <= to {
				take = 1
			}
		} else {
			for k < len(at) && at[k] < f.Next {
				take++
				k++
			}
		}
		for ; take > 0; take-- {
			b, err := jpegOf(f.Image, flipped)
			if err != nil {
				return err
			}
			out = append(out, b)
		}
		return nil
	})
	return out, err
}

func jpegOf(img *image.RGBA, flipped bool) ([]byte, error) {
	src := img
	if flipped {
		src = gifplay.Mirror(img)
	}
	var b bytes.Buffer
	err := jpeg.Encode(&b, src, &jpeg.Options{Quality: 90})
	return b.Bytes(), err
}

// readFrame is frame n (f%03d.jpg) of a clip of a test set under root.
func readFrame(root, set, clip string, n int) ([]byte, error) {
	p, err := testkit.FindData(root, "testdata", set, clip, fmt.Sprintf("f%03d.jpg", n))
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}
