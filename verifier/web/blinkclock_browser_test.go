package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/chromium"
	"github.com/idgate/idgate/verifier/face/liveness"
)

// The page's blink keeps the server's clock (trackersteps.ts, Steps.see;
// liveness Config.MaxClosing and MaxReopening, sent in the challenge's
// guide) where the frames sent make the server's answer certain: a
// closed frame sent more than blink_max_closing_ms after the frame before
// it begins no blink, nor do the closed frames after it until the eyes
// open; eyes open more than blink_max_reopening_ms after the last closed
// frame, none sent between, did not reopen in time. A walk at load 16
// showed why: the test camera stalled 267 ms as the eyes closed, the page
// moved on, and the server, which allows 250, failed the blink as
// wrong_step when the turn came. Where frames the tracker skipped lie in
// the gap, the page cannot know what the server read, and counts the
// blink as before.
func TestPageBlinkKeepsTheServersClockInChromium(t *testing.T) {
	t.Parallel()
	tb := guidePage(t)
	// A frame every 66 ms; eyes: the eye ratio the tracker read (the
	// baseline is 0.30), NaN for a frame sent but not tracked.
	type frame struct {
		at   int
		eyes float64
	}
	open, shut := 0.30, 0.12
	// from builds frames at from, every 66 ms, one per eye reading.
	from := func(at int, eyes ...float64) []frame {
		var out []frame
		for i, e := range eyes {
			out = append(out, frame{at + 66*i, e})
		}
		return out
	}
	rest := from(0, open, open, open, open, open, open, open, open) // the lead-in: 0–462 ms
	cases := []struct {
		name   string
		frames []frame
		doneAt int // -1: no blink seen
	}{
		{"a blink at the camera's pace", append(rest, from(528, open, shut, shut, open)...), 726},
		{"a closing after a 300 ms stall", append(rest, from(528, open)[0], frame{828, shut}, frame{894, shut}, frame{960, open}), -1},
		{"a closing after a 300 ms stall, then a blink at pace",
			append(append(rest, from(528, open)[0], frame{828, shut}, frame{894, shut}), from(960, open, open, shut, open)...), 1158},
		{"a reopening after a 450 ms stall", append(rest, from(528, open, shut, shut)[0:3]...), -1},
		{"a stall the tracker skipped frames in", append(rest, from(528, open, math.NaN(), math.NaN(), math.NaN(), shut, shut, open)...), 924},
	}
	cases[3].frames = append(cases[3].frames, frame{594 + 66 + 450, open})
	for _, c := range cases {
		var at []int
		var eyes []float64
		for _, f := range c.frames {
			at = append(at, f.at)
			eyes = append(eyes, f.eyes)
		}
		a, _ := json.Marshal(at)
		e, _ := json.Marshal(nanAsNull(eyes))
		got := chromium.Eval[int](tb, fmt.Sprintf(`((times, eyes) => {
			const guide = { turn_degrees: 15, frontal_degrees: 12, blink_close_ratio: 0.65, blink_open_ratio: 0.8, blink_max_yaw_degrees: 20,
				straight_ahead_max_degrees: 20, straight_ahead_seed_ms: 500, blink_max_closing_ms: 250, blink_max_reopening_ms: 400 };
			const sent = [];
			const steps = new G.Steps(guide, sent);
			let done = -1;
			times.forEach((at, i) => {
				sent.push(at);
				if (eyes[i] === null) return;
				const seen = { face: { x: 100, y: 100, w: 200, h: 200 }, pose: { yaw: 0, pitch: 0, roll: 0 }, eyes: eyes[i], light: 0.5, exact: true, anchor: 0 };
				steps.settle(at, seen, at < 500);
				if (at < 500) return steps.rest(at, seen);
				if (at === times.find((t) => t >= 500)) steps.next(at);
				if (steps.see("blink", at, seen).done && done < 0) done = at;
			});
			return done;
		})(%s, %s)`, a, e))
		if got != c.doneAt {
			t.Errorf("%s: the page saw the blink done at %d ms, want %d (-1: not seen)", c.name, got, c.doneAt)
		}
	}
}

// nanAsNull is eyes for JSON, NaN (not tracked) as null.
func nanAsNull(eyes []float64) []any {
	out := make([]any, len(eyes))
	for i, e := range eyes {
		if !math.IsNaN(e) {
			out[i] = e
		}
	}
	return out
}

// A page that did not see his blink: the tracker stalls through the
// blink's cue (the test camera holds each frame the page gives the worker
// 4 s, or until the cue changes), so the cue stays up for the step's 8 s
// and he blinks again and again, as a person who sees it still up does.
// The server times the next turn from his last blink before it (liveness
// Config.BlinkLast), not his first, 0.9 s into the cue: from that one the
// turn that follows the page's next cue ends more than 8 s after, and a
// genuine person was refused timeout (a CI rehearsal, 2026-12-02; on the
// code before BlinkLast this walk was refused so both times it ran).
func TestPageThatMissedTheBlinkInChromium(t *testing.T) {
	t.Parallel()
	testkit.TakesTurns(t, 2)
	e := start(t)
	order := []liveness.Step{liveness.TurnRight, liveness.Blink, liveness.TurnLeft}
	tb := liveTab(t, e, 390, 844, restBlinkSegments(), 0)
	eval[bool](tb, `(Object.assign(idgateTestCamera, {hold: {blink: 4000}, again: {blink: 500}}), true)`)
	for attempt, button := range []string{"Start the video", "Try again", "Try again"} {
		e.order.Queue(order...)
		end, w := walkStep(t, tb, button)
		took := cueTimes(w)
		t.Logf("attempt %d: %s; cues up for %v; blinked %d times again; the server's steps %+v; camera stalled %d ms at most",
			attempt+1, strings.ReplaceAll(end, "\n", " / "), took, w.Repeats, w.Answer.Steps, w.Stall)
		if w.Stall >= 250 && !w.Answer.Passed && attempt < 2 {
			continue // the page froze, and the person on camera with it
		}
		if took[1] < w.limit(1)-time.Second {
			t.Fatalf("the blink's cue stayed %v: the page saw his blink through a stalled tracker", took[1])
		}
		if !w.Answer.Passed || len(w.Answer.Steps) != 3 {
			t.Fatalf("the server refused him: failures %v, steps %+v", w.Answer.Failures, w.Answer.Steps)
		}
		// The blink counted is one of his blinks again, not his first:
		// the cue (in the recording's time) is the first cue's time plus
		// the turn's cue time.
		blinkCue := w.CueAt + int(took[0]/time.Millisecond)
		if got := w.Answer.Steps[1].AtMS - blinkCue; w.Repeats < 2 || got < 2000 {
			t.Errorf("the blink counted ended %d ms into its cue after %d blinks again, want one of the later ones", got, w.Repeats)
		}
		return
	}
}
