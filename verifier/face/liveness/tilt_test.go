package liveness

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
)

// The tilt set (testdata/tilt/tfjs_facemesh, testdata/README.md): a woman
// with glasses at a webcam, 10.8 s, as 108 frames of 10 fps (f001.jpg…,
// frame n at (n−1)×100 ms). Labelled by eye on every frame, and against
// the analyser's eye ratios: she tilts her head towards her left shoulder
// (roll up to +31° at 22–34) and back, then towards her right (−31° at
// 49–58) and back, never turning (yaw within ±8°). She blinks at 11–12
// (roll 8–11°), 19–21 (roll 28–30°), 31–33 (roll 31°), 41–42 (roll −7 to
// −11°) and 94–95 (upright); 55–58 her left eye alone half closes, twice;
// at 69–75 she narrows her left eye and at 79–88 shuts her right one
// (winks, not blinks: neither is labelled).
const tiltFrames = 108

// tiltWindow is a stretch of the clip, from frame from to frame to, asked
// for one blink per labelled closure.
type tiltWindow struct {
	from, to int
	blinks   [][2]int // the frames each blink closes the eyes
}

// tiltWindows are the windows in which she does what is asked: each blink
// with a lead-in of open eyes (the baseline needs MinBaselineRuns frames),
// and her first four blinks asked in turn.
var tiltWindows = []tiltWindow{
	{1, 18, [][2]int{{11, 12}}},
	{13, 30, [][2]int{{19, 21}}},
	{22, 40, [][2]int{{31, 33}}},
	{34, 50, [][2]int{{41, 42}}},
	{89, 108, [][2]int{{94, 95}}},
	{1, 50, [][2]int{{11, 12}, {19, 21}, {31, 33}, {41, 42}}},
}

// tiltKnownRefused are windows in which she does what is asked and that
// are refused, with why. The test fails when one passes: move it to
// tiltWindows.
var tiltKnownRefused = []struct {
	w   tiltWindow
	why string
}{
	// Her head tilted 28–31° towards her right shoulder and raised
	// (pitch +3 to +6°) at 53–56 reads as another person against her
	// head tilted the other way at the window's start: frame 35 (roll
	// +23°) against 53 is 0.61 apart, against 55 (roll −28°) 0.645, 9
	// pairs over the 0.6 bound (windows from 34 ending by frame 52
	// pass, 0.57). Kept refused: her tilted frames are as
	// near other people's upright faces (0.59 from a GRID speaker and a
	// labelled face, 0.61 from another speaker) as to her own upright
	// frames (up to 0.67), and the pose-aware rules that pass this
	// window also passed splices of two people that the bound refuses
	// (bench/liveness, "pose-aware same-person rules tried";
	// docs/engines.md).
	{tiltWindow{34, 58, [][2]int{{41, 42}}}, "different_person"},
}

// TestTiltedBlinks: blinks of a real person whose head is tilted up to 31°
// are found where they were labelled, and each window in which she does
// what is asked passes.
func TestTiltedBlinks(t *testing.T) {
	dir := testkit.Data(t, "testdata", "tilt", "tfjs_facemesh")
	an := analyzer(t)
	var sig []Signal
	for n := 1; n <= tiltFrames; n++ {
		data, err := os.ReadFile(fmt.Sprintf("%s/f%03d.jpg", dir, n))
		if err != nil {
			t.Fatal(err)
		}
		s, err := an.Frame(Frame{Data: data})
		if err != nil {
			t.Fatal(err)
		}
		sig = append(sig, s)
	}
	judge := func(w tiltWindow) Result {
		var seq []Signal
		for n := w.from; n <= w.to; n++ {
			s := sig[n-1]
			s.T = time.Duration(n-w.from) * 100 * time.Millisecond
			seq = append(seq, s)
		}
		steps := make([]Step, len(w.blinks))
		for i := range steps {
			steps[i] = Blink
		}
		return Decide(challenge(steps...), seq, now, Defaults)
	}
	for _, w := range tiltWindows {
		r := judge(w)
		t.Logf("frames %d–%d: live=%v failures=%v steps=%+v", w.from, w.to, r.Live, r.Failures, r.Steps)
		if !r.Live {
			t.Errorf("frames %d–%d, blinks at %v: refused: %v %+v", w.from, w.to, w.blinks, r.Failures, r.Steps)
			continue
		}
		for i, s := range r.Steps {
			// Done from the closure's first frame to two frames after its
			// last (the reopening).
			at := w.from + int(s.AtMS/100)
			if b := w.blinks[i]; at < b[0] || at > b[1]+2 {
				t.Errorf("frames %d–%d: blink %d done at frame %d, labelled %d–%d", w.from, w.to, i+1, at, b[0], b[1])
			}
		}
	}
	for _, k := range tiltKnownRefused {
		w, why := k.w, k.why
		r := judge(w)
		t.Logf("frames %d–%d (known refused: %s): live=%v failures=%v", w.from, w.to, why, r.Live, r.Failures)
		if r.Live {
			t.Errorf("frames %d–%d now pass (were refused: %s): move them to tiltWindows", w.from, w.to, why)
		}
	}
}
