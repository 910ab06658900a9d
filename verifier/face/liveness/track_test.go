package liveness

import (
	"testing"
	"time"
)

// moving is a face of 100 px whose centre moves dx px between frames
// taken every dt.
func moving(n int, dt time.Duration, dx float64) []Signal {
	out := make([]Signal, n)
	for i := range out {
		out[i] = Signal{T: time.Duration(i) * dt, Faces: 1, Size: 100, Centre: [2]float64{100 + dx*float64(i), 100}}
	}
	return out
}

// Tracking allows movement in proportion to the time between frames: a
// head moving 3 face sizes a second (a quick real turn on a phone moves
// 2.5) is followed at 10 fps and across frames 400 ms apart; the same
// distance in a 33 ms step is a jump.
func TestTrackInTime(t *testing.T) {
	cases := []struct {
		name        string
		sig         []Signal
		jumped, was bool // under Defaults and SyntheticSetDefaults
	}{
		{"3 sizes/s at 10 fps", moving(10, 100*time.Millisecond, 30), false, false},
		{"3 sizes/s, frames 400 ms apart", moving(5, 400*time.Millisecond, 120), false, true},
		{"40 px in 33 ms", moving(5, 33*time.Millisecond, 40), true, false},
		{"still", moving(10, 66*time.Millisecond, 0), false, false},
	}
	for _, c := range cases {
		if _, got := track(c.sig, Defaults); got != c.jumped {
			t.Errorf("%s: jumped %v, want %v", c.name, got, c.jumped)
		}
		if _, got := track(c.sig, SyntheticSetDefaults); got != c.was {
			t.Errorf("%s, synthetic-set rules: jumped %v, want %v", c.name, got, c.was)
		}
	}
}

// A single misread frame is forgiven and taken out of the frames the
// steps are judged on; two in a row, or one at the stream's end, are a
// jump.
func TestTrackGlitch(t *testing.T) {
	sig := moving(10, 100*time.Millisecond, 0)
	sig[4].Size = 150
	tracked, jumped := track(sig, Defaults)
	if jumped || tracked[4].Faces != 0 || tracked[3].Faces != 1 || tracked[5].Faces != 1 || sig[4].Faces != 1 {
		t.Fatalf("one misread frame: jumped %v, tracked faces %d %d %d", jumped, tracked[3].Faces, tracked[4].Faces, tracked[5].Faces)
	}
	sig[5].Size = 150
	if _, jumped := track(sig, Defaults); !jumped {
		t.Fatal("two frames at 1.5×: not a jump")
	}
	sig = moving(10, 100*time.Millisecond, 0)
	sig[9].Centre[0] += 100
	if _, jumped := track(sig, Defaults); !jumped {
		t.Fatal("a jump in the last frame: forgiven")
	}
}
