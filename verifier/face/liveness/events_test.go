package liveness

import (
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
	cases := []struct {
		name string
		sig  []Signal
		want int
	}{
		{"quick blink", with(0.12, 0.30), 1},
		{"blink through a half-open frame", with(0.20, 0.10, 0.20, 0.30), 1},
		{"deliberate blink, 330 ms shut", with(0.10, 0.10, 0.10, 0.10, 0.10, 0.30), 1},
		{"squint to 0.7", with(0.21, 0.21, 0.21, 0.30), 0},
		// Drifts down over 400 ms before it counts as closed.
		{"slow closure", with(0.26, 0.23, 0.21, 0.19, 0.17, 0.12, 0.30), 0},
		{"eyes held shut 600 ms", with(0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.30), 0},
		{"slow reopening", with(0.1, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.30), 0},
		{"never reopens", eyeSeries(append(append([]float64{}, open...), 0.1, 0.1)...), 0},
	}
	for _, c := range cases {
		if got := len(Blinks(c.sig, Defaults)); got != c.want {
			t.Errorf("%s: %d blinks, want %d", c.name, got, c.want)
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

func yawSeries(yaws ...float64) []Signal {
	out := make([]Signal, len(yaws))
	for i, y := range yaws {
		out[i] = Signal{T: time.Duration(i) * time.Second / 15, Faces: 1, Pose: pose.Pose{Yaw: y}}
	}
	return out
}

func TestTurnShapes(t *testing.T) {
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
		var got []Step
		for _, e := range Turns(c.sig, Defaults) {
			got = append(got, e.Kind)
		}
		if len(got) != len(c.want) || (len(got) > 0 && got[0] != c.want[0]) || (len(got) > 1 && got[1] != c.want[1]) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A turn held longer than MaxTurnTime is not a turn and back.
	yaws := []float64{0}
	for range 70 {
		yaws = append(yaws, 30)
	}
	if e := Turns(yawSeries(append(yaws, 0)...), Defaults); len(e) != 0 {
		t.Errorf("4.7 s turn: %+v", e)
	}
	// Losing the face mid-turn breaks it.
	s := yawSeries(0, 30, 30, 0)
	s[2].Faces = 0
	if e := Turns(s, Defaults); len(e) != 0 {
		t.Errorf("face lost mid-turn: %+v", e)
	}
}
