package liveness

import (
	"slices"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/face/pose"
)

// eyeSeries builds a frontal 15 fps stream whose eye aspect ratio follows
// ears (both eyes equal).
func eyeSeries(ears ...float64) []Signal {
	out := make([]Signal, len(ears))
	for i, e := range ears {
		out[i] = Signal{T: time.Duration(i) * time.Second / 15, Faces: 1, Eyes: pose.Eyes{Right: e, Left: e}}
	}
	return out
}

func TestBlinkShapes(t *testing.T) {
	open := []float64{0.30, 0.31, 0.30, 0.29, 0.30, 0.31, 0.30, 0.30}
	with := func(mid ...float64) []Signal {
		s := append(append(append([]float64{}, open...), mid...), open...)
		return eyeSeries(s...)
	}
	shut := func(ms int) []Signal { // eyes shut for ms at 15 fps
		mid := []float64{}
		for range ms * 15 / 1000 {
			mid = append(mid, 0.1)
		}
		return with(append(mid, 0.30)...)
	}
	cases := []struct {
		name         string
		sig          []Signal
		want, before int // blinks under Defaults and ForemanDefaults
		was          int // under SyntheticSetDefaults
	}{
		{"quick blink", with(0.12, 0.30), 1, 1, 1},
		{"blink through a half-open frame", with(0.20, 0.10, 0.20, 0.30), 1, 1, 1},
		{"deliberate blink, 330 ms shut", with(0.10, 0.10, 0.10, 0.10, 0.10, 0.30), 1, 1, 1},
		{"squint to 0.7", with(0.21, 0.21, 0.21, 0.30), 0, 0, 0},
		// Drifts down over 330 ms before it counts as closed (0.19, 0.63
		// of the baseline; 0.12 at 0.6).
		{"slow closure", with(0.27, 0.235, 0.22, 0.21, 0.20, 0.19, 0.12, 0.30), 0, 0, 0},
		// Closed at 0.65 of the baseline 200 ms after the last open
		// frame, at 0.6 only 267 ms after.
		{"closure over 270 ms", with(0.26, 0.23, 0.21, 0.19, 0.17, 0.12, 0.30), 1, 0, 0},
		// A closure to 0.62 of the baseline: the real set's closed eyes
		// read up to 0.62 (bench/liveness).
		{"closure to 0.62", with(0.186, 0.30), 1, 0, 0},
		{"eyes shut 600 ms", shut(600), 1, 0, 1},
		{"eyes shut 870 ms", shut(870), 1, 0, 1},
		{"eyes held shut 1.2 s", shut(1200), 0, 0, 0},
		{"eyes held shut 3 s", shut(3000), 0, 0, 0},
		{"slow reopening", with(0.1, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.30), 0, 0, 0},
		{"never reopens", eyeSeries(append(append([]float64{}, open...), 0.1, 0.1)...), 0, 0, 0},
		// Eyes shut from the first frame to the last (a photo of closed
		// eyes, or a person who never opens them): no open baseline, no
		// blink.
		{"shut throughout", eyeSeries(0.08, 0.07, 0.08, 0.07, 0.08, 0.07, 0.08, 0.07, 0.08, 0.07, 0.08, 0.07), 0, 0, 0},
		// Open throughout, unchanging (a still photo).
		{"open throughout", eyeSeries(open...), 0, 0, 0},
	}
	for _, c := range cases {
		if got := len(Blinks(c.sig, Defaults)); got != c.want {
			t.Errorf("%s: %d blinks, want %d", c.name, got, c.want)
		}
		if got := len(Blinks(c.sig, ForemanDefaults)); got != c.before {
			t.Errorf("%s, old rules: %d blinks, want %d", c.name, got, c.before)
		}
		if got := len(Blinks(c.sig, SyntheticSetDefaults)); got != c.was {
			t.Errorf("%s, synthetic-set rules: %d blinks, want %d", c.name, got, c.was)
		}
	}
	// A blink with the head turned past BlinkMaxYaw is not judged.
	s := with(0.12, 0.30)
	for i := range s {
		s[i].Pose.Yaw = 30
	}
	if n := len(Blinks(s, Defaults)); n != 0 {
		t.Errorf("turned head: %d blinks", n)
	}
	// Nor without a baseline: a stream that starts with the closure.
	if n := len(Blinks(eyeSeries(0.3, 0.1, 0.3, 0.3), Defaults)); n != 0 {
		t.Errorf("no baseline: %d blinks", n)
	}
}

// The first phone capture's prompted blink, a phone capture at 10 fps: the eye
// ratio from 0.24 down to 0.07 and back, five frames closed (500 ms from
// the first closed frame to the first that is not). It is a blink; the
// old 400 ms bound refused it.
func TestPromptedBlink10FPS(t *testing.T) {
	ears := []float64{0.24, 0.25, 0.24, 0.23, 0.24, 0.24, 0.25, 0.24, 0.24, 0.24, // 1 s open
		0.15, 0.07, 0.07, 0.07, 0.08, 0.10, 0.18, 0.24, 0.24, 0.25, 0.24}
	sig := make([]Signal, len(ears))
	for i, e := range ears {
		sig[i] = Signal{T: time.Duration(i) * 100 * time.Millisecond, Faces: 1, Eyes: pose.Eyes{Right: e, Left: e}}
	}
	if b := Blinks(sig, SyntheticSetDefaults); len(b) != 1 || b[0].From != 11 {
		t.Fatalf("synthetic-set rules: blinks %+v, want one closing at frame 11", b)
	}
	// 0.15 is 0.62 of the open 0.24: closed at 0.65.
	if b := Blinks(sig, Defaults); len(b) != 1 || b[0].From != 10 {
		t.Fatalf("blinks %+v, want one closing at frame 10", b)
	}
	if b := Blinks(sig, ForemanDefaults); len(b) != 0 {
		t.Fatalf("old rules: blinks %+v", b)
	}
	// The step passes through Decide's step matching too.
	if r := steps(Challenge{Steps: []Step{Blink}, StepTimeoutMS: 8000}, sig, Defaults); !r[0].Passed {
		t.Fatalf("blink step %+v", r[0])
	}
}

func yawSeries(yaws ...float64) []Signal {
	out := make([]Signal, len(yaws))
	for i, y := range yaws {
		out[i] = Signal{T: time.Duration(i) * time.Second / 15, Faces: 1, Pose: pose.Pose{Yaw: y}}
	}
	return out
}

// TestTurnShapesForeman: the old rules (ForemanDefaults), where yaw is
// absolute: a turn starts under 12°, passes 25° and comes back under 12°
// within 4 s; a swing through, a faceless frame or a turn never brought
// back breaks it.
func TestTurnShapesForeman(t *testing.T) {
	cases := []struct {
		name string
		sig  []Signal
		want []Step
	}{
		{"left and back", yawSeries(0, 10, 20, 30, 20, 5), []Step{TurnLeft}},
		{"right and back", yawSeries(0, -15, -28, -15, 0), []Step{TurnRight}},
		{"not far enough", yawSeries(0, 15, 24, 15, 0), nil},
		{"never back", yawSeries(0, 15, 30, 30, 20), nil},
		{"not from frontal", yawSeries(15, 20, 30, 20, 5), nil},
		{"swing through", yawSeries(0, 30, 15, -30, 0), nil},
		{"both in turn", yawSeries(0, 30, 0, -30, 0), []Step{TurnLeft, TurnRight}},
	}
	for _, c := range cases {
		if got := turnKinds(c.sig, ForemanDefaults); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A turn held longer than MaxTurnTime is not a turn and back.
	yaws := []float64{0}
	for range 70 {
		yaws = append(yaws, 30)
	}
	if e := Turns(yawSeries(append(yaws, 0)...), ForemanDefaults); len(e) != 0 {
		t.Errorf("4.7 s turn: %+v", e)
	}
	// Losing the face mid-turn breaks it.
	s := yawSeries(0, 30, 30, 0)
	s[2].Faces = 0
	if e := Turns(s, ForemanDefaults); len(e) != 0 {
		t.Errorf("face lost mid-turn: %+v", e)
	}
}

func turnKinds(sig []Signal, cfg Config) []Step {
	var got []Step
	for _, e := range Turns(sig, cfg) {
		got = append(got, e.Kind)
	}
	return got
}

// still prefixes a 600 ms lead-in at yaw rest (the page's "look at the
// camera" before the first cue) to yaws, all at 15 fps.
func still(rest float64, yaws ...float64) []Signal {
	lead := make([]float64, 9)
	for i := range lead {
		lead[i] = rest
	}
	return yawSeries(append(lead, yaws...)...)
}

// TestTurnShapes: the rules of Defaults, yaw judged from the person's own
// straight-ahead (the median of the frames within 20° of the camera),
// past 15° from it.
func TestTurnShapes(t *testing.T) {
	cases := []struct {
		name string
		sig  []Signal
		want []Step
	}{
		{"left and back", still(0, 10, 20, 30, 20, 5), []Step{TurnLeft}},
		{"right and back", still(0, -15, -28, -15, 0), []Step{TurnRight}},
		{"not far enough", still(0, 10, 14, 10, 0), nil},
		// Starting turned 15° to the left: 15 → 28 is only 13° of
		// turning, 15 → -10 is 25° to the right.
		{"offset start, small left", still(15, 20, 28, 20, 15), nil},
		{"offset start, right", still(15, 5, -5, -10, 5, 15), []Step{TurnRight}},
		{"offset start, left", still(15, 25, 40, 25, 15), []Step{TurnLeft}},
		// Settling: 300 ms turned 12° to the right before resting at 0
		// (the old rule took the first 500 ms as straight-ahead).
		{"settling start", yawSeries(-12, -12, -12, -12, -12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 16, 8, 0), []Step{TurnLeft}},
		// Swinging through straight-ahead ends the first turn there.
		{"swing through", still(0, 30, 15, -30, -10, 0), []Step{TurnLeft, TurnRight}},
		{"both in turn", still(0, 30, 0, -30, 0), []Step{TurnLeft, TurnRight}},
		// Overshoot far past the angle: still one turn.
		{"overshoot", still(0, 20, 45, 60, 50, 35, 5), []Step{TurnLeft}},
		// The stream ends while the turn is held: it counts.
		{"held at the end", still(0, 15, 30, 30, 30), []Step{TurnLeft}},
		// Frames past MaxBaselineYaw are not straight-ahead: no frame
		// within 20° of the camera, nothing faces it, no turn.
		{"start turned far", still(40, 35, 30, 35, 40), nil},
	}
	for _, c := range cases {
		if got := turnKinds(c.sig, Defaults); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A face lost for 400 ms inside a turn (the detector missing a face
	// turned far) does not break it; one lost for 600 ms does.
	s := still(0, 20, 40, 50, 50, 50, 50, 50, 50, 50, 50, 40, 10, 0)
	for i := 12; i < 18; i++ { // 6 frames: 400 ms from the last face
		s[i].Faces = 0
	}
	if got := turnKinds(s, Defaults); !slices.Equal(got, []Step{TurnLeft}) {
		t.Errorf("face lost 400 ms mid-turn: %v", got)
	}
	for i := 12; i < 20; i++ { // 8 frames: 600 ms
		s[i].Faces = 0
	}
	if got := turnKinds(s, Defaults); len(got) != 0 {
		t.Errorf("face lost 600 ms mid-turn: %v", got)
	}
	// A turn from straight-ahead to back taking longer than 8 s is not
	// counted (a step may take 8 s).
	yaws := []float64{}
	for range 130 {
		yaws = append(yaws, 30)
	}
	if e := Turns(still(0, append(yaws, 0)...), Defaults); len(e) != 0 {
		t.Errorf("8.7 s turn: %+v", e)
	}
}

// webcamClip is the shape of the first webcam clip at fps: a person
// resting at +14° (not facing the camera exactly), pitching a little
// while turning, who turns to +41° (overshooting to +46°), then swings to
// −45° and back to rest. keys are (ms, yaw, pitch) and frames follow them
// linearly.
func webcamClip(fps float64) []Signal {
	keys := [][3]float64{{0, 14, 5}, {800, 13, 6}, {1100, 30, 0}, {1300, 46, -6}, {1500, 41, -7},
		{2200, 41, -5}, {2500, 0, 2}, {2800, -45, 8}, {3500, -43, 6}, {4000, 12, 4}, {5000, 14, 5}}
	var out []Signal
	for ms := 0.0; ms <= keys[len(keys)-1][0]; ms += 1000 / fps {
		k := 1
		for keys[k][0] < ms {
			k++
		}
		a, b := keys[k-1], keys[k]
		f := (ms - a[0]) / (b[0] - a[0])
		out = append(out, Signal{T: time.Duration(ms * float64(time.Millisecond)), Faces: 1,
			Pose: pose.Pose{Yaw: a[1] + f*(b[1]-a[1]), Pitch: a[2] + f*(b[2]-a[2])}})
	}
	return out
}

// The clip passes turn_left,turn_right and fails the other order
// with wrong_step, at 10, 15 and 30 fps. Under the old rules it passed
// neither order.
func TestTurnWebcamClip(t *testing.T) {
	lr := Challenge{Steps: []Step{TurnLeft, TurnRight}, StepTimeoutMS: 8000}
	rl := Challenge{Steps: []Step{TurnRight, TurnLeft}, StepTimeoutMS: 8000}
	for _, fps := range []float64{10, 15, 30} {
		sig := webcamClip(fps)
		if r := steps(lr, sig, Defaults); !r[0].Passed || !r[1].Passed {
			t.Errorf("%v fps, left then right: %+v", fps, r)
		}
		if r := steps(rl, sig, Defaults); r[0].Reason != StepWrong || r[1].Reason != StepNotReached {
			t.Errorf("%v fps, right then left: %+v", fps, r)
		}
		if r := steps(lr, sig, ForemanDefaults); r[0].Passed && r[1].Passed {
			t.Errorf("%v fps, old rules: left then right passed", fps)
		}
		if r := steps(rl, sig, ForemanDefaults); r[0].Passed && r[1].Passed {
			t.Errorf("%v fps, old rules: right then left passed", fps)
		}
	}
}

// A turn begun but not taken far enough is reported as such; one not
// begun, or begun the other way, is not.
func TestTurnNotFarEnough(t *testing.T) {
	ch := Challenge{Steps: []Step{TurnLeft}, StepTimeoutMS: 8000}
	cases := []struct {
		sig  []Signal
		want Reason
	}{
		{still(0, 5, 10, 13, 10, 3), StepNotFarEnough},
		{still(0, 3, 6, 3, 0), StepNotObserved},
		{still(0, -5, -10, -13, -10, -3), StepNotObserved},
		{still(0, 10, 25, 10, 0), ""},
	}
	for _, c := range cases {
		if r := steps(ch, c.sig, Defaults); r[0].Reason != c.want {
			t.Errorf("yaw %v: %+v, want %q", c.sig[9:], r[0], c.want)
		}
	}
}

// Each frame is judged from the straight-ahead of the frames up to it
// (StraightAheadSoFar), as the end-user page judges it live: a right turn
// of 16.5° from a lead-in at 0° is done, even when the person then rests
// 4–5° to their right for the rest of the stream (the whole stream's
// median, −4°, would read it 12.5°, not far enough: a real walk ended
// 3.4° apart so). Frames past 20° from the camera do not count, and
// before any frame does, straight-ahead is 0 (the page's too).
func TestStraightAheadSoFar(t *testing.T) {
	rest := make([]float64, 30)
	for i := range rest {
		rest[i] = -4 - float64(i%2)
	}
	sig := still(0, append([]float64{-8, -16.5, -16.5, -8, 0}, rest...)...)
	if got := turnKinds(sig, Defaults); !slices.Equal(got, []Step{TurnRight}) {
		t.Errorf("so far: turns %v, want [turn_right]", got)
	}
	whole := Defaults
	whole.StraightAheadSoFar = false
	if got := turnKinds(sig, whole); len(got) != 0 {
		t.Errorf("whole stream: turns %v, want none (the rule this replaces)", got)
	}
	ch := Challenge{Steps: []Step{TurnRight}, StepTimeoutMS: 8000}
	if r := steps(ch, sig, whole); r[0].Reason != StepNotFarEnough {
		t.Errorf("whole stream: %+v, want not_far_enough", r[0])
	}
	got := StraightAheads(yawSeries(-30, -25, 4, 2, 10, -21, 6), Defaults)
	want := []float64{0, 0, 4, 3, 4, 4, 5}
	if !slices.Equal(got, want) {
		t.Errorf("straight-ahead so far %v, want %v", got, want)
	}
	if s := StraightAhead(yawSeries(-30, -25, 4, 2, 10, -21, 6), Defaults); s != 5 {
		t.Errorf("straight-ahead after the stream %v, want 5", s)
	}
}

// Past the lead-in (StraightAheadSeed), a frame counts toward
// straight-ahead only within FrontalYaw of the straight-ahead so far: a
// left turn's frames on their way out and back (0° to 18°, all within
// 20° of the camera) do not pull a −6° rest towards the left, so a second
// left turn is measured from −6°, not from where the first one's frames
// put it. Frames at rest that wander within FrontalYaw still count (a
// person who settles), and with StraightAheadSeed 0 every frame within
// MaxBaselineYaw does (the rule before).
func TestStraightAheadAtRest(t *testing.T) {
	turn := []float64{-6, 0, 6, 12, 18, 24, 28, 28, 24, 18, 12, 6, 0, -6}
	var yaws []float64
	for k := 0; k < 2; k++ {
		yaws = append(yaws, turn...)
		yaws = append(yaws, -4, -4, -4) // his rest after the turn, 2° off
	}
	sig := still(-6, yaws...)
	second := len(sig) - 3 - len(turn) + 6 // the second turn's peak
	atRest := StraightAheads(sig, Defaults)[second]
	if atRest < -6 || atRest > -4 {
		t.Errorf("at rest: the second turn is judged from %.1f°, want his rest, −6° to −4°", atRest)
	}
	every := Defaults
	every.StraightAheadSeed = 0
	if drifted := StraightAheads(sig, every)[second]; drifted < atRest+2 {
		t.Errorf("every frame: the second turn is judged from %.1f°, want the drift (over %.1f°) this rule removes", drifted, atRest+2)
	}
	// A rest that moves 8° after the lead-in is followed.
	settled := still(-6, -2, -2, -2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
	if s := StraightAhead(settled, Defaults); s != 2 {
		t.Errorf("a person who settles 8° from the lead-in: straight-ahead %.1f°, want 2°", s)
	}
}

// The stalls the page's blink is held to (verifier/web,
// TestPageBlinkKeepsTheServersClockInChromium, the same frames): the
// server refuses a closing 300 ms after the frame before it and a
// reopening 450 ms after the last closed frame, and takes the same blink
// at the camera's pace, or a second one at pace after a late closing.
func TestBlinkStalls(t *testing.T) {
	at := func(ms int, eyes float64) Signal {
		return Signal{T: time.Duration(ms) * time.Millisecond, Faces: 1, Eyes: pose.Eyes{Right: eyes, Left: eyes}}
	}
	open, shut := 0.30, 0.12
	var rest []Signal
	for i := range 8 {
		rest = append(rest, at(66*i, open))
	}
	with := func(s ...Signal) []Signal { return append(append([]Signal{}, rest...), s...) }
	for _, c := range []struct {
		name string
		sig  []Signal
		want int
	}{
		{"a blink at the camera's pace", with(at(528, open), at(594, shut), at(660, shut), at(726, open)), 1},
		{"a closing after a 300 ms stall", with(at(528, open), at(828, shut), at(894, shut), at(960, open)), 0},
		{"a closing after a 300 ms stall, then a blink at pace",
			with(at(528, open), at(828, shut), at(894, shut), at(960, open), at(1026, open), at(1092, shut), at(1158, open)), 1},
		{"a reopening after a 450 ms stall", with(at(528, open), at(594, shut), at(660, shut), at(1110, open)), 0},
	} {
		if got := len(Blinks(c.sig, Defaults)); got != c.want {
			t.Errorf("%s: %d blinks, want %d", c.name, got, c.want)
		}
	}
}
