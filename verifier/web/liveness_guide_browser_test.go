package web_test

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/internal/testkit/gifplay"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/web/tracker"
)

// The liveness step with the face tracker, on a real person:
// smartlive.gif of ../shared/testdata/liveness/real, a man following a
// liveness app's prompts on his phone. The test camera
// (testdata/livecamera.js) plays his own segment for whichever step the
// page asks, from the moment its cue appears, so the page's pacing meets a
// real person's: the cues must advance as he moves, and the server (the
// real engines) judges the frames the page sent. Screenshots go to
// var/screenshots/liveness/.

//go:embed testdata/livecamera.js
var liveCamera string

// segment is a stretch of smartlive as the test camera plays it: each
// frame (a JPEG data: URL) with the time it is shown from, in ms from the
// segment's start; the last frame stays.
type segment struct {
	URLs []string `json:"urls"`
	At   []int    `json:"at"`
}

// smartlive cuts segs out of the clip, flipped (it is a mirrored
// front-camera preview; the page sends unmirrored frames), at the clip's
// own frame times as a browser plays the GIF: 431 frames, most 20–30 ms
// apart, 87 with a delay under 2/100 s, which browsers show for 1/10 s
// (the README's timeline, 17.5 s, counts them so). A segment {from, to}
// counts 10 fps frames from 1 as the README's labels do (frame n is what
// is shown at (n−1)×100 ms): it is the frame on screen at from's time and
// every frame after it up to to's.
//
// At its own times, because that is how a camera delivers a person: his
// blink shuts his eyes for 70 ms (three frames, 11030–11099 ms, read at
// 0.54–0.62 of his open eyes by the server), and the 10 fps resampling
// this camera used to play fell on either side of it (11000 and 11100
// ms): the page could not send what the camera never showed, and the
// server, reading his eyes at 0.84 of open at most, refused the blink.
func smartlive(t *testing.T, segs map[string][2]int) map[string]segment {
	t.Helper()
	out := map[string]segment{}
	for _, fr := range smartliveFrames(t) {
		for name, r := range segs {
			from, to := (r[0]-1)*100, (r[1]-1)*100
			// Frame i is in the segment if it is on screen at from's
			// time or starts after it, up to to's.
			if fr.next <= from || fr.at > to {
				continue
			}
			s := out[name]
			s.URLs = append(s.URLs, fr.url)
			s.At = append(s.At, max(0, fr.at-from))
			out[name] = s
		}
	}
	return out
}

// shownFrame is one frame of smartlive as a browser shows it, from at to
// next ms: the picture on screen, mirrored back, as a JPEG data: URL.
type shownFrame struct {
	url      string
	at, next int
}

// smartliveCache holds the clip's frames, made once per test binary: the
// tracked walks open eight tabs on it, and decoding and encoding it for
// each took 12.9 s of the package's CPU (profile, 2026-11-30).
var smartliveCache struct {
	once   sync.Once
	frames []shownFrame
	err    error
}

func smartliveFrames(t *testing.T) []shownFrame {
	t.Helper()
	path := testkit.Data(t, "testdata", "liveness", "real", "smartlive.gif")
	c := &smartliveCache
	c.once.Do(func() { c.frames, c.err = decodeShown(path) })
	check(t, c.err)
	return c.frames
}

// decodeShown plays the GIF at path as a browser does and keeps every
// frame as shown, mirrored.
func decodeShown(path string) ([]shownFrame, error) {
	var out []shownFrame
	err := gifplay.Play(path, func(f gifplay.Frame) error {
		var b bytes.Buffer
		if err := jpeg.Encode(&b, gifplay.Mirror(f.Image), &jpeg.Options{Quality: 92}); err != nil {
			return err
		}
		out = append(out, shownFrame{url: "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b.Bytes()),
			at: int(f.At.Milliseconds()), next: int(f.Next.Milliseconds())})
		return nil
	})
	return out, err
}

// Segments of smartlive (flipped) by the README's labels, 10 fps frames
// from 1: at rest facing the camera before his left turn; the left turn
// (35–50) from just before it starts; the right turn (95–104); the blink
// (110–112) with the open eyes before it, from where he has settled
// after his right turn (from 105–107, the turn's end, −12° to −15° on the
// page's frames, asked first it read as a right turn before the blink:
// wrong_step).
var smartSegments = map[string][2]int{
	"rest":       {30, 30},
	"turn_left":  {31, 56},
	"turn_right": {90, 107},
	"blink":      {108, 116},
}

// restBlinkSegments is smartSegments with his unprompted blink at 2 s
// (frames 13–25: open 0.7 s, eyes shut 210 ms at frames 20–23), at rest
// as in the frames before the first cue, for the blink.
func restBlinkSegments() map[string][2]int {
	out := map[string][2]int{"blink": {13, 25}}
	for k, v := range smartSegments {
		if k != "blink" {
			out[k] = v
		}
	}
	return out
}

// liveTab is a phone tab w×h with the test camera and smartlive's
// segments loaded, open at the liveness step of a fresh link whose
// license steps were done through the API.
func liveTab(t *testing.T, e *env, w, h int, segs map[string][2]int, cores int64) *tab {
	t.Helper()
	if _, err := tracker.Files(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("SKIPPING the tracked liveness tests — %v", err)
	}
	c := e.create(`{}`)
	e.endUser(c, "/license/front", "image/jpeg", front(t, foremanFace(t)), 200)
	e.endUser(c, "/license/back", "image/jpeg", back(t), 200)
	tb := newTab(t, true)
	tb.Shots = "liveness"
	tb.Run(chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	if cores > 0 {
		if _, err := chromedp.Call(tb.Ctx, emulation.SetHardwareConcurrencyOverride, emulation.SetHardwareConcurrencyOverrideParams{HardwareConcurrency: cores}); err != nil {
			t.Fatal(err)
		}
	}
	liveCameraOn(tb)
	// The page's console and uncaught errors go to the test's log.
	check(t, chromedp.Listen(tb.Ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			t.Logf("console.%s: %s", ev.Type, strings.Join(parts, " "))
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			t.Logf("page error: %s", msg)
		}
	}))
	tb.Open(c.URL)
	tb.screen("live")
	for name, s := range smartlive(t, segs) {
		tb.loadSegment(name, s)
	}
	return tb
}

// liveCameraOn gives tb's pages the test camera (testdata/livecamera.js).
func liveCameraOn(tb *tab) {
	tb.T.Helper()
	if _, err := chromedp.Call(tb.Ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: liveCamera}); err != nil {
		tb.T.Fatal(err)
	}
}

// loadSegment gives the open page's test camera segment s as name.
func (tb *tab) loadSegment(name string, s segment) {
	tb.T.Helper()
	js, _ := json.Marshal(s)
	if got := eval[int](tb, fmt.Sprintf(`idgateTestCamera.load(%q, %s)`, name, js)); got != len(s.URLs) {
		tb.T.Fatalf("segment %s: the camera loaded %d of %d frames", name, got, len(s.URLs))
	}
}

// blockTracker gives the tab's pages no WebAssembly, as on a phone that
// cannot run the face tracker: the page then paces the cues.
func blockTracker(tb *tab) {
	tb.T.Helper()
	if _, err := chromedp.Call(tb.Ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: "delete window.WebAssembly;"}); err != nil {
		tb.T.Fatal(err)
	}
}

// walk is what one walk of the step showed.
type walk struct {
	// Log: when each segment of the camera started (page ms), in order.
	Log []struct {
		Seg string `json:"seg"`
		At  int    `json:"at"`
	} `json:"log"`
	Frames  int `json:"frames"`
	Tracked int `json:"tracked"`
	Eyes    int `json:"eyes"`
	// Carried: tracked frames read on a box from another frame (the
	// turns' carried detector box, the blink's box Human kept).
	Carried int `json:"carried"`
	// Lanes: the most pairs of frames tracked at once (data-lanes: one
	// worker each, src/tracker.ts).
	Lanes int `json:"lanes"`
	// Repeats: how many times the camera played a segment again; Stall:
	// the longest the camera went without a new frame (ms).
	Repeats int `json:"repeats"`
	Stall   int `json:"stall"`
	// Straight: the page's straight-ahead (its data-straight) when the
	// recording ended.
	Straight float64 `json:"straight"`
	// Rest: the lead-in's frames the page tracked with the head's pose
	// when its first cue came (data-rest).
	Rest int `json:"rest"`
	// CueAt: when the first cue came (data-cue-at), in the recording's ms.
	CueAt int `json:"cueAt"`
	// Judged: each turn the page saw far enough (data-judged): its step,
	// the time of the frame that showed it (as sent) and the
	// straight-ahead the page measured it from.
	Judged []judged `json:"judged"`
	// Settled: the frames the page took straight-ahead from
	// (data-settled, Steps.trace): at (ms), yaw (nil without a face),
	// 1 for the lead-in's.
	Settled [][3]*float64 `json:"settled"`
	// Sent: the frame times (ms) the page sent; Answer: the server's
	// answer to them.
	Sent   []int `json:"sent"`
	Answer struct {
		Passed   bool     `json:"passed"`
		Failures []string `json:"failures"`
		Steps    []struct {
			Step   string `json:"step"`
			Passed bool   `json:"passed"`
			Reason string `json:"reason"`
			AtMS   int    `json:"at_ms"`
		} `json:"steps"`
	} `json:"answer"`
}

// judged is one turn as the page judged it (liveness.ts, guided).
type judged struct {
	Step     int     `json:"step"`
	At       int     `json:"at"`
	Straight float64 `json:"straight"`
}

// walkStep starts the video on tb with the button start (at the liveness
// step, challenge order queued) and follows it to its end screen,
// returning that screen and what the camera and the page recorded.
func walkStep(t *testing.T, tb *tab, start string) (string, walk) {
	t.Helper()
	eval[bool](tb, `(Object.assign(idgateTestCamera, {log: [], repeats: 0, sent: null, frames: null, answer: null}), true)`)
	tb.click(start)
	tb.screen("live-capture")
	if _, err := chromium.Until[bool](tb.Tab, `document.querySelector(".stage").dataset.tracker === "on"`, 40*time.Second); err != nil {
		t.Fatalf("the tracker did not start: %v; the page reads %q", err, tb.Text())
	}
	// Its models run in the worker (src/trackerworker.ts), off the thread
	// that records.
	if in := eval[string](tb, `document.querySelector(".stage").dataset.trackerIn`); in != "worker" {
		t.Errorf("the tracker runs in the %q, not in its worker", in)
	}
	eval[bool](tb, `(idgateTestCamera.stall = 0, true)`)
	var w walk
	// The last numbers before the page leaves the capture screen.
	for {
		raw, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[string](`(() => { const s = document.querySelector(".stage");
			return JSON.stringify({log: idgateTestCamera.log, frames: +(s && s.dataset.frames || 0), tracked: +(s && s.dataset.tracked || 0), carried: +(s && s.dataset.carried || 0), lanes: +(s && s.dataset.lanes || 0), eyes: +(s && s.dataset.eyes || 0), straight: +(s && s.dataset.straight || 0), rest: +(s && s.dataset.rest || 0), cueAt: +(s && s.dataset.cueAt || 0), judged: JSON.parse(s && s.dataset.judged || "[]"), settled: JSON.parse(s && s.dataset.settled || "[]"), repeats: idgateTestCamera.repeats, stall: idgateTestCamera.stall, screen: document.querySelector("main").dataset.screen}); })()`))
		if err != nil {
			t.Fatal(err)
		}
		var now struct {
			walk
			Screen string `json:"screen"`
		}
		check(t, json.Unmarshal([]byte(raw), &now))
		if now.Screen != "live-capture" {
			w.Log = now.Log
			break
		}
		w = now.walk
		time.Sleep(100 * time.Millisecond)
	}
	return answered(t, tb, w)
}

// answered waits for the screen after the page's answer (done,
// live-failed, or past a passed liveness the face match's review offer:
// the license carries another person's photo) and returns it with w
// completed by the frame times the page sent and the server's answer.
func answered(t *testing.T, tb *tab, w walk) (string, walk) {
	t.Helper()
	end, err := chromium.Until[string](tb.Tab, `(() => { const m = document.querySelector("main"), n = m && m.dataset.screen;
		return ["done", "review", "live-failed"].includes(n) ? n + ": " + m.innerText : null; })()`, 60*time.Second)
	if err != nil {
		t.Fatalf("the walk ended on %q (%v)", tb.Text(), err)
	}
	raw := eval[string](tb, `JSON.stringify({sent: idgateTestCamera.sent || [], answer: idgateTestCamera.answer || {}})`)
	check(t, json.Unmarshal([]byte(raw), &w))
	return end, w
}

// stepTimeout is the server's time per step (liveness Defaults), which
// the page waits at most on a cue it does not see done.
const stepTimeout = 8 * time.Second

// limit is how long the page keeps step i's cue up at most: stepTimeout,
// less the lead-in for the first (the server times the first step from
// the recording's first frame; src/liveness.ts).
func (w walk) limit(i int) time.Duration {
	if i == 0 {
		return stepTimeout - time.Duration(w.CueAt)*time.Millisecond
	}
	return stepTimeout
}

// cueTimes is how long each cue stayed up, from the camera's log (it
// switches segment when the cue changes); the last cue's time is not
// known and left out.
func cueTimes(w walk) map[int]time.Duration {
	out := map[int]time.Duration{}
	k := 0
	for i := 1; i+1 < len(w.Log); i++ {
		out[k] = time.Duration(w.Log[i+1].At-w.Log[i].At) * time.Millisecond
		k++
	}
	return out
}

// A real person's walk: the page moves on as he finishes each turn
// (well before the step's time limit) and tracks the frames it sends, and
// the server, judging the frames the page sent, finds him live in each of
// four orders, the same turn twice among them. His blink shuts his eyes for 70 ms (smartlive); the page
// captures at 12 fps (83 ms apart), so a capture can fall on either side
// of it (about one blink in six, as on a phone), and then nothing shows
// the blink done: like a person who sees the cue still up, he blinks
// again half a second after his blink ends (the camera plays the segment
// again), which the page asks for by keeping the cue.
//
// The test camera draws on the page's thread: on a machine so loaded that
// the page froze (the camera went 250 ms or more without a frame; at a
// load of 16 on 2 cores it went 4 fps, missed his right turn's peak and
// was refused not_far_enough and frame_rate_out_of_bounds), the person
// on camera froze with it, which no real person does, and he tries again
// as the page offers; a refusal without the page freezing, or three,
// fails the test, and a turn cue up for the step's whole time fails it
// where the page did not freeze.
func TestTrackedLivenessWalksARealPersonInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	// Asked after his right turn, his prompted blink follows it as in his
	// own session. Asked first, it is his unprompted blink at 2 s
	// (restBlinkSegments): cut in there, the prompted blink (his head still coming back
	// from his right turn, 6–9° right of where the other segments put his
	// straight-ahead) made a right turn before the blink (wrong_step, two
	// walks in three), the splice's doing, not a person's. Asked after a
	// turn, its 0.7 s of open eyes before the blink are what a page whose
	// tracker reads eyelids 2–4 times a second (load 15) has for its
	// baseline (trackersteps.ts, blinkReach).
	first := restBlinkSegments()
	type walkOrder struct {
		order []liveness.Step
		segs  map[string][2]int
	}
	// Two of the four orders a run (testkit.Share: the commit's hash modulo 2
	// picks them; IDGATE_TEST_SWEEPS=full walks all four): a walk is a browser
	// with the tracker busy for its whole length and the server's analysis
	// of every frame, about 30 s of CPU of the 2-core CI machine.
	for i, c := range testkit.Share([]walkOrder{
		{[]liveness.Step{liveness.TurnLeft, liveness.TurnRight, liveness.Blink}, smartSegments},
		{[]liveness.Step{liveness.Blink, liveness.TurnRight, liveness.TurnLeft}, first},
		// The same turn twice: the first turn's frames must not move the
		// straight-ahead the second is judged from (issue #30).
		{[]liveness.Step{liveness.TurnLeft, liveness.Blink, liveness.TurnLeft}, first},
		{[]liveness.Step{liveness.TurnRight, liveness.Blink, liveness.TurnRight}, first},
	}, 2) {
		order := c.order
		// The second walk is on a phone with cores to spare (8, as
		// mid-range Android phones have): its tracker runs in two
		// workers, taking pairs of frames in turn (src/tracker.ts,
		// lanes), and the page observes them in order. The walk starts
		// once the second worker has its models in, so that both lanes
		// track it (on a phone it joins while the person reads the
		// step's screen).
		var cores int64
		if i == 1 {
			cores = 8
		}
		tb := liveTab(t, e, 390, 844, c.segs, cores)
		if cores > 0 {
			if _, err := chromium.Until[bool](tb.Tab, `idgateTestCamera.workers.length === 2 && idgateTestCamera.workers[1].said.includes("iris")`, 90*time.Second); err != nil {
				t.Fatalf("a phone of 8 cores: no second tracker worker with its models in (%v; workers said %s)", err,
					eval[string](tb, `JSON.stringify(idgateTestCamera.workers.map((w) => w.said))`))
			}
		}
		eval[bool](tb, `(idgateTestCamera.again.blink = 500, true)`)
		for attempt, button := range []string{"Start the video", "Try again", "Try again"} {
			e.order.Queue(order...)
			end, w := walkStep(t, tb, button)
			took := cueTimes(w)
			t.Logf("order %v, attempt %d: %s; %d frames sent, %d tracked (%d with eyelids, %d on a box from another frame) on %d lanes; cues up for %v; blinked again %d times; camera stalled %d ms at most; sent at %v ms",
				order, attempt+1, strings.ReplaceAll(end, "\n", " / "), w.Frames, w.Tracked, w.Eyes, w.Carried, w.Lanes, took, w.Repeats, w.Stall, w.Sent)
			if want := map[bool]int{false: 1, true: 2}[cores > 0]; w.Lanes != want {
				t.Errorf("order %v, attempt %d: the page tracked on %d lanes at most, want %d (told %d cores)", order, attempt+1, w.Lanes, want, cores)
			}
			if w.Answer.Passed {
				// The page's pace is judged where the page was not starved.
				for i, st := range order {
					if d, ok := took[i]; ok && st != liveness.Blink && d > w.limit(i)-time.Second && w.Stall < 250 {
						t.Errorf("order %v: the %s cue stayed %v: the page did not see his turn done", order, st, d)
					}
				}
				// How many of the frames the tracker keeps up with is a
				// speed figure, which bench/pages measures under a fixed
				// profile (tracked fps); on a shared machine it follows the
				// load (60 of 112 and 52 of 64 at load 9, 42 of 69 at 29),
				// so here it only has to have run.
				if w.Tracked == 0 {
					t.Errorf("order %v: none of the %d frames sent was tracked", order, w.Frames)
				}
				straightAgrees(t, tb, w, order)
				break
			}
			if disagree(order, took, w) && attempt < 2 {
				// The page's tracker called a blink done on frames the server
				// reads as not closed enough, so the cue moved on and he did
				// not blink again (about 1 walk in 6 before the page's blink
				// margin; 1 in 12 with today's, its camera stalled past the
				// server's 250 ms closing: docs/end-user-flow.md). He tries
				// again, as the page offers; three refusals fail the test.
				// (The other way, a blink the server saw and the page did
				// not, no longer fails the turn after it: liveness
				// Config.BlinkLast, TestPageThatMissedTheBlinkInChromium.)
				t.Logf("order %v, attempt %d: the page saw his blink and moved on, the server did not see it (%+v); trying again", order, attempt+1, w.Answer.Steps)
				continue
			}
			if w.Stall < 250 || attempt == 2 {
				t.Errorf("order %v, attempt %d: the server refused him: failures %v, steps %+v", order, attempt+1, w.Answer.Failures, w.Answer.Steps)
				break
			}
		}
	}
}

// leadRest and leadMaxMs are the page's (src/liveness.ts): the first
// cue waits for leadRest posed frames of the lead-in, or leadMaxMs from
// the recording's start.
const (
	leadRest  = 3
	leadMaxMs = 2500
)

// A phone whose tracker is slow before the first cue (the test camera
// holds each frame the page gives its worker 700 ms while no cue is up:
// no frame of the 600 ms lead-in can come back within it): the first cue
// waits for the lead-in's posed frames, so the page's straight-ahead is
// taken at rest, as the server's is, and the turns it judges are
// measured from the same straight-ahead as on the server. Before, the
// cue came at 600 ms with no posed frame and the page took its
// straight-ahead from the first turn's own frames.
func TestTrackedLivenessSlowTrackerWaitsForRestInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	order := []liveness.Step{liveness.TurnLeft, liveness.TurnRight, liveness.Blink}
	tb := liveTab(t, e, 390, 844, smartSegments, 0)
	eval[bool](tb, `(Object.assign(idgateTestCamera, {hold: {rest: 700}, again: {blink: 500}}), true)`)
	for attempt, button := range []string{"Start the video", "Try again", "Try again"} {
		e.order.Queue(order...)
		end, w := walkStep(t, tb, button)
		t.Logf("attempt %d: %s; %d frames sent, %d tracked; %d posed frames in the lead-in, the first cue at %d ms; the page judged %+v; camera stalled %d ms at most",
			attempt+1, strings.ReplaceAll(end, "\n", " / "), w.Frames, w.Tracked, w.Rest, w.CueAt, w.Judged, w.Stall)
		// The lead-in took its posed frames, or ran to its bound: a pair
		// of frames held 700 ms each comes back 1.4 s after it was taken
		// and more under load, and at CI's load (stop 48's rehearsal, load
		// 8) none had by 2.5 s: then the cue comes at the bound, as the
		// page is built to, and the turns are still compared below.
		if w.Rest < leadRest && w.CueAt < leadMaxMs {
			t.Errorf("the first cue came at %d ms with %d posed frames of the lead-in: before the page's bound (%d ms) and short of its %d", w.CueAt, w.Rest, leadMaxMs, leadRest)
		}
		if len(w.Judged) == 0 {
			// The page saw no turn through (the tracker starved past the
			// cue): nothing to compare; he tries again.
			continue
		}
		if w.Judged[0].Step == 0 {
			straightAgrees(t, tb, w, order)
			return
		}
	}
	t.Errorf("in three attempts the page never judged his first turn")
}

// straightMaxApart: how far the page's straight-ahead, at the frame on
// which it saw a turn far enough, may be from the one the server judged
// that turn from (liveness.StraightAheads at the first frame of the
// server's turn past its angle): the page asks margin (trackersteps.ts,
// 2°) past the server's angle, which covers this much. Measured on
// 2026-11-29 at loads of 6–17, 16 walks of
// TestTrackedLivenessWalksARealPersonInChromium and 8 of
// TestTrackedLivenessSlowTrackerWaitsForRestInChromium: 0.20° on all 24
// first turns (the page reads his rest at −5.8°, the server at −6.0°).
//
// A turn that follows a turn was logged, not held to it, until the
// straight-ahead at rest (issue #30, liveness StraightAheadSeed): after a
// 600 ms lead-in the previous turn's frames within 20° of the camera
// outnumbered the rest and the median fell among them, where a frame read
// 4–7° apart near 20° counted on one side and not the other: on 8 such
// turns the server judged his right turn from −2.4° to +9.3° (his rest
// −6.0°) and the page's was 15.1° stricter to 4.0° looser. Now those
// frames do not count on either side: on 2026-11-29 at loads 7–15, in
// 19 passed walks of the four orders (left-right-blink, blink-right-left,
// and the same turn twice, left-blink-left and right-blink-right) every
// turn after a turn or a blink was 0.12–1.03° apart (the page's subset
// of his blink's frames at rest), so every turn is held to 1.5°, inside
// the page's margin of 2°. On 2026-12-01 (5008739), 15 walks, 14 of them
// left-blink-left: the second left turn, after the blink, was the
// closest, −0.78° to 1.21° (0.60–1.21° in 7 of 8 beside two CPU hogs, load
// 3–4): the page's yaw on his blink's frames reads a median 1° under the
// server's (the two meshes' noise, not a frame rule: frames the server
// alone reads 3–4° above both neighbours; docs/end-user-flow.md, session
// 24), so the server's straight-ahead rises over the blink and the
// page's less.
const straightMaxApart = 1.5

// straightMaxStricter: how much stricter than the server the page may
// measure a turn for its straight-ahead alone. A stricter page costs the
// person a little more turn, never a refusal: the server judges the
// frames either way. On 2026-11-30 at load 9-13 (three other test
// binaries and two engineers' benches beside it) a right turn after his
// blink was measured 2.13° stricter (the page's straight-ahead −8.11°, the
// server's −5.98°: the page had tracked fewer of his blink's frames at
// rest); held to 1.5° it failed the walk, once in 20 orders here (the
// same test failed CI at stop 46, its error lines cut from the log). 3°
// leaves room over that reading
// and is still a fraction of the 20° turn.
const straightMaxStricter = 3.0

// straightAgrees reads the frames the page sent on walk w (the steps in
// order) with the server's own analyser and checks, turn by turn, that
// the straight-ahead the page measured each turn from is the one the
// server judged it from (within straightMaxApart where the page sees
// the turn further, straightMaxStricter where it sees it less far) (liveness.StraightAheads
// under the serving Defaults: the median yaw of the face frames so far
// within 20° of the camera, at rest) where the server's turn became unmistakable: the turn the
// server passed for that step (its at_ms is the event's end). Beside
// it the server's straight-ahead at the page's own frame, the whole
// stream's (the server's rule before #30) and, at the walk's end, the
// page's and the server's.
func straightAgrees(t *testing.T, tb *tab, w walk, order []liveness.Step) {
	t.Helper()
	urls := eval[[]string](tb, `idgateTestCamera.jpegs()`)
	if len(urls) != len(w.Sent) || len(urls) == 0 {
		t.Fatalf("the page sent %d frames and %d times", len(urls), len(w.Sent))
	}
	set, err := models.Open("", models.Hashes)
	check(t, err)
	an, err := liveness.NewAnalyzer(set.ReadFile, nil, liveness.Defaults)
	check(t, err)
	sig := make([]liveness.Signal, len(urls))
	for i, u := range urls {
		data, err := base64.StdEncoding.DecodeString(u[strings.IndexByte(u, ',')+1:])
		check(t, err)
		sig[i], err = an.Frame(liveness.Frame{Data: data, T: time.Duration(w.Sent[i]) * time.Millisecond})
		check(t, err)
	}
	whole := liveness.Defaults
	whole.StraightAheadSoFar = false
	so, all := liveness.StraightAheads(sig, liveness.Defaults), liveness.StraightAhead(sig, whole)
	t.Logf("straight-ahead at the end: the page read %.1f°, the server %.1f°, over %d frames sent; the page's lead-in had %d posed frames",
		w.Straight, so[len(so)-1], len(sig), w.Rest)
	turns := liveness.Turns(sig, liveness.Defaults)
	for _, j := range w.Judged {
		if j.Step >= len(order) || j.Step >= len(w.Answer.Steps) {
			t.Errorf("the page judged step %d of %d", j.Step, len(order))
			continue
		}
		at := slices.Index(w.Sent, j.At)
		res := w.Answer.Steps[j.Step]
		var e *liveness.Event
		for k := range turns {
			if turns[k].Kind == order[j.Step] && turns[k].End.Milliseconds() == int64(res.AtMS) {
				e = &turns[k]
			}
		}
		if at < 0 || !res.Passed || e == nil {
			t.Errorf("the page judged %s at %d ms (frame %d), which the server's turns %+v do not match (%+v)", order[j.Step], j.At, at, turns, res)
			continue
		}
		side := 1.0
		if e.Kind == liveness.TurnRight {
			side = -1
		}
		// How much further than the server the page sees the turn for its
		// straight-ahead alone.
		over := (so[e.From] - j.Straight) * side
		t.Logf("  %s (step %d): the page measured it from %.2f° at %d ms, the server from %.2f° at %v: the page sees it %.2f° further (the server's at the page's frame %.2f°, the whole stream's %.2f°)",
			order[j.Step], j.Step+1, j.Straight, j.At, so[e.From], sig[e.From].T, over, so[at], all)
		if over > straightMaxApart || over < -straightMaxStricter {
			t.Errorf("the page measured its %s from %.2f°, %.2f° from the server's %.2f°", order[j.Step], j.Straight, over, so[e.From])
			t.Logf("the frames the page took straight-ahead from (ms: its yaw/the server's; L the lead-in's, - no face), to replay through Steps: %s", settledTrace(w, sig))
		}
	}
}

// settledTrace lists the frames the page settled (walk.Settled) beside
// the server's yaw of the same frame sent.
func settledTrace(w walk, sig []liveness.Signal) string {
	var b strings.Builder
	for _, f := range w.Settled {
		if f[0] == nil {
			continue
		}
		at := int(*f[0])
		page := "-"
		if f[1] != nil {
			page = fmt.Sprintf("%.2f", *f[1])
		}
		server := "?"
		if i := slices.Index(w.Sent, at); i >= 0 && sig[i].Faces > 0 {
			server = fmt.Sprintf("%.2f", sig[i].Pose.Yaw)
		}
		lead := ""
		if f[2] != nil && *f[2] == 1 {
			lead = "L"
		}
		fmt.Fprintf(&b, " %d%s:%s/%s", at, lead, page, server)
	}
	return b.String()
}

// disagree reports whether the server refused only the blink step
// (wrong_step or not_observed, the steps after it not reached) after the
// page had moved its blink cue on before the step's time: the page's
// tracker saw a blink the server did not.
func disagree(order []liveness.Step, took map[int]time.Duration, w walk) bool {
	for i, st := range w.Answer.Steps {
		if st.Passed {
			continue
		}
		d, ok := took[i]
		if i >= len(order) || order[i] != liveness.Blink || (st.Reason != "wrong_step" && st.Reason != "not_observed") ||
			(ok && d > w.limit(i)-time.Second) || (!ok && w.Repeats > 0) {
			return false
		}
		for _, after := range w.Answer.Steps[i+1:] {
			if after.Reason != "not_reached" {
				return false
			}
		}
		return slices.Equal(w.Answer.Failures, []string{"steps_not_completed"})
	}
	return false
}

// A still photo of him never moves a turn on: the cue stays up for the
// step's whole time, the meter never reads a turn, and the server refuses
// what the page sent. On a phone of 8 cores, with two tracker workers
// (src/tracker.ts, lanes); one dies as the first cue comes up (ended
// from outside, as a crash ends it: no word from it), and the other goes
// on tracking alone: the first, or the second, which has every model in
// (the page's thread stays the recorder's). One of the two losses a run
// (testkit.Share: the commit's hash modulo 2 picks it; IDGATE_TEST_SWEEPS=full
// walks both): each walk waits out every step's whole time, 16-17 s of its
// browser's CPU on the 2-core CI machine (2026-12-01), and the still photo
// is refused the same way in both.
func TestTrackedLivenessStillPhotoNeverAdvancesATurnInChromium(t *testing.T) {
	t.Parallel()
	type loss struct {
		name  string
		ended int
	}
	for _, c := range testkit.Share([]loss{{"second worker lost", 1}, {"first worker lost", 0}}, 2) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			stillPhoto(t, c.ended, strings.ReplaceAll(c.name, " ", "-"))
		})
	}
}

func stillPhoto(t *testing.T, ended int, name string) {
	e := start(t)
	still := map[string][2]int{"rest": smartSegments["rest"], "turn_left": smartSegments["rest"], "turn_right": smartSegments["rest"], "blink": smartSegments["rest"]}
	tb := liveTab(t, e, 390, 844, still, 8)
	if _, err := chromium.Until[bool](tb.Tab, `idgateTestCamera.workers.length === 2 && idgateTestCamera.workers[1].said.includes("iris")`, 90*time.Second); err != nil {
		t.Fatalf("a phone of 8 cores: no second tracker worker with its models in: %v", err)
	}
	e.order.Queue(liveness.TurnLeft, liveness.Blink, liveness.TurnRight)
	tb.click("Start the video")
	tb.screen("live-capture")
	tb.Wait(`document.querySelector(".stage").dataset.step === "0"`)
	if lanes := eval[int](tb, `+(document.querySelector(".stage").dataset.lanes || 0)`); lanes != 2 {
		t.Errorf("told 8 cores, the page tracks on %d lanes, not 2", lanes)
	}
	eval[bool](tb, fmt.Sprintf(`(idgateTestCamera.workers[%d].terminate(), true)`, ended))
	start := time.Now()
	most := 0
	first := walk{CueAt: eval[int](tb, `+document.querySelector(".stage").dataset.cueAt`)}.limit(0)
	for time.Since(start) < first-500*time.Millisecond {
		st := eval[struct {
			Step  string `json:"step"`
			Label string `json:"label"`
		}](tb, `({step: document.querySelector(".stage").dataset.step, label: document.querySelector(".meter .label").textContent})`)
		if st.Step != "0" {
			t.Fatalf("the turn cue moved on after %v on a still photo", time.Since(start))
		}
		var n, of int
		if _, err := fmt.Sscanf(st.Label, "Turned %d° of %d°", &n, &of); err == nil && n > most {
			most = n
		}
		time.Sleep(200 * time.Millisecond)
	}
	if most > 5 {
		t.Errorf("the meter read a turn of %d° on a still photo", most)
	}
	tb.ShootHere("still-photo-turn-left-" + name + "-390x844")
	// The worker's silence has been noticed (the page waits 5 s for an
	// answer: tracker.ts, answerMs); the other still tracks.
	tracked := func() int { return eval[int](tb, `+(document.querySelector(".stage").dataset.tracked || 0)`) }
	before := tracked()
	time.Sleep(1500 * time.Millisecond)
	if after := tracked(); after < before+2 {
		t.Errorf("after worker %d died the page tracked %d frames in 1.5 s", ended, after-before)
	}
	if in := eval[string](tb, `document.querySelector(".stage").dataset.trackerIn`); in != "worker" {
		t.Errorf("after worker %d died the tracker runs in %q, not in the other worker", ended, in)
	}
	if lanes := eval[int](tb, `+(document.querySelector(".stage").dataset.lanes || 0)`); lanes != 1 {
		t.Errorf("worker %d dead for %v, the page tracks on %d lanes, not 1", ended, time.Since(start).Round(time.Second), lanes)
	}
	if end, w := answered(t, tb, walk{}); w.Answer.Passed || !strings.HasPrefix(end, "live-failed") {
		t.Errorf("a still photo: the server answered %+v (%q)", w.Answer, end)
	}
}

// guideTab is liveTab at 360×640 with the segments the guidance screens
// use; shoot writes the page at 360×640 (checked with axe) and 390×844.
// Frames of smartlive's left turn (flipped) as the server reads them
// (idgate face liveness): at rest (30) yaw −6.5°; 34 +0.5°, a turn of 7°
// from there, half the server's 15° (turn_degrees); 40 +25.2°, 32° turned.
// (The page reads 30 at −5.8°. Frame 37, the half turn when the server
// asked 20°, reads 20.7° turned: past today's 15°, so the meter went from
// 0° straight to "far enough" and never read a half turn.)
func guideTab(t *testing.T, e *env) (*tab, func(name string), func(force, fx string)) {
	segs := map[string][2]int{"rest": smartSegments["rest"], "noface": {125, 125}, "turned": {34, 34}, "peak": {40, 40}}
	tb := liveTab(t, e, 360, 640, segs, 0)
	shoot := func(name string) {
		tb.ShootHere(name + "-360x640")
		tb.Run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
		tb.Screenshot(name + "-390x844")
		tb.Run(chromedp.EmulateViewport(360, 640, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	}
	camera := func(force, fx string) {
		eval[bool](tb, fmt.Sprintf(`(idgateTestCamera.force = %q, Object.assign(idgateTestCamera.fx, {scale: 1, dx: 0, dy: 0, light: 1}, %s), true)`, force, fx))
	}
	return tb, shoot, camera
}

// Each piece of guidance before the first cue, at 360×640 and 390×844
// (var/screenshots/liveness/): the camera is moved, scaled, darkened or
// turned until the page says what to change, then set right.
func TestTrackedLivenessReadyGuidanceInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	tb, shoot, camera := guideTab(t, e)
	for i, c := range []struct{ force, fx, guide, says string }{
		{"noface", "{}", "noface", "Put your face in the oval"},
		{"rest", "{scale: 0.4}", "closer", "Move closer"},
		{"rest", "{scale: 1.7}", "farther", "Move back a little"},
		{"rest", "{dx: 0.3}", "centre", "Move your face to the middle of the oval"},
		{"rest", "{light: 0.3}", "dark", "Too dark: turn towards a light"},
		{"peak", "{}", "straight", "Look straight at the camera"},
	} {
		camera(c.force, c.fx)
		if i == 0 {
			tb.click("Start the video")
			tb.screen("live-capture")
		}
		if _, err := chromium.Until[bool](tb.Tab, fmt.Sprintf(`document.querySelector(".stage").dataset.guide === %q`, c.guide), 30*time.Second); err != nil {
			t.Fatalf("the page never said %q: it says %q (%v)", c.says, eval[string](tb, `document.querySelector(".say").textContent`), err)
		}
		contains(t, eval[string](tb, `document.querySelector(".say").textContent`), c.says)
		shoot("guide-" + c.guide)
	}
	// Set right: the oval is marked ready (a check mark and a solid line,
	// not colour alone).
	camera("rest", "{}")
	tb.Wait(`document.querySelector(".stage").dataset.guide === "ok"`)
	tb.ShootHere("guide-ready-360x640")
}

// The steps' guidance: a turn half done, far enough, then the blink asked
// for, and asked again when none was seen in 3 s; with reduced motion the
// cue does not move. The tracker's worker
// dies as the first cue comes up (ended from outside, as a crash ends it:
// no word from it, its frames unanswered): the page tracks on its own
// thread from then on, the step goes on to "far enough", and the person
// is told nothing but the step.
func TestTrackedLivenessStepGuidanceInChromium(t *testing.T) {
	t.Parallel()
	e := start(t)
	tb, shoot, camera := guideTab(t, e)
	e.order.Queue(liveness.TurnLeft, liveness.Blink, liveness.TurnRight)
	// 96 s a step: the shots below took 8.5 s at load 22, and at load 20
	// the page's own tracker took 23 s to load after the worker was lost.
	e.roomy.Set(12)
	camera("rest", "{}")
	tb.click("Start the video")
	tb.Wait(`document.querySelector(".stage") && document.querySelector(".stage").dataset.step === "0"`)
	if n := eval[int](tb, `(idgateTestCamera.workers.forEach((w) => w.terminate()), idgateTestCamera.workers.length)`); n != 1 {
		t.Fatalf("the page started %d workers, not its tracker's one", n)
	}
	// The head turns once the page's own tracker reads its pose: the
	// straight-ahead it measures turns from is the frames it tracked (as
	// the server's is the frames before each), and a head already turned
	// when it starts would be its straight-ahead (0° turned).
	posed := eval[int](tb, `+(document.querySelector(".stage").dataset.posed || 0)`)
	if _, err := chromium.Until[bool](tb.Tab, fmt.Sprintf(`(() => { const s = document.querySelector(".stage");
		return !!s && s.dataset.trackerIn === "page" && +(s.dataset.posed || 0) >= %d; })()`, posed+3), 90*time.Second); err != nil {
		t.Fatalf("the page's own tracker never read the head's pose after its worker was lost: %v (%s)", err,
			eval[string](tb, `JSON.stringify(document.querySelector(".stage").dataset)`))
	}
	// The step's time runs while the page is shot: plain screenshots here,
	// axe once the blink is asked for.
	quick := func(name string) { tb.shootPhones(name, 360, 640) }
	camera("turned", "{}")
	meterReads(t, tb, `/Turned ([1-9]\d*)° of \d+°/.test(w)`)
	quick("step-turn-left-halfway")
	camera("peak", "{}")
	meterReads(t, tb, `w.includes("look back")`)
	quick("step-turn-left-far-enough")
	if in := eval[string](tb, `document.querySelector(".stage").dataset.trackerIn`); in != "page" {
		t.Errorf("after its worker died the tracker runs in %q, not on the page", in)
	}
	if say := eval[string](tb, `document.querySelector(".say").textContent`); say != "Movement 1 of 3: Turn your head to your left" {
		t.Errorf("after the tracker's worker died the page says %q", say)
	}
	camera("rest", "{}")
	tb.Wait(`document.querySelector(".stage").dataset.step === "1"`)
	contains(t, eval[string](tb, `document.querySelector(".meter .label").textContent`), "Close your eyes for a moment")
	if _, err := chromedp.Call(tb.Ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
		t.Fatal(err)
	}
	if a := eval[string](tb, `getComputedStyle(document.querySelector(".cue"), "::before").animationName`); a != "none" {
		t.Errorf("with reduced motion the blink cue still animates (%s)", a)
	}
	shoot("step-blink-reduced-motion")
	// No blink 3 s into its cue: asked again, a little longer, and said.
	meterReads(t, tb, `w.includes("Not seen yet")`)
	if say := eval[string](tb, `document.querySelector(".say").textContent`); say != "Movement 2 of 3: Blink again" {
		t.Errorf("a blink not seen in 3 s: the page says %q", say)
	}
	quick("step-blink-again")
}

// meterReads waits until the step meter's words w pass test (JavaScript on
// w), and fails at once with what it last read if the capture ends first.
func meterReads(t *testing.T, tb *tab, test string) {
	t.Helper()
	got, err := chromium.Until[string](tb.Tab, fmt.Sprintf(`(() => { const l = document.querySelector(".meter .label");
		if (!l) return "ended"; const w = l.textContent; window.idgateLastMeter = w; return (%s) && "ok"; })()`, test), 30*time.Second)
	if err != nil || got != "ok" {
		t.Fatalf("the meter never passed %s: it last read %q, and the page is on %q (%v)", test,
			eval[string](tb, `String(window.idgateLastMeter)`), eval[string](tb, `document.querySelector("main").dataset.screen`), err)
	}
}
