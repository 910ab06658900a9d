package liveness

import (
	"testing"
)

// TestForemanBlink: over frames 14–100 (every 2nd: talking, squinting
// into the sun at 14–33, looking down at 74–80, turning) exactly one blink
// is found, and it is the full blink at frames 66–68.
func TestForemanBlink(t *testing.T) {
	const firstFrame = 14
	seq := sequence(t, firstFrame, 100)
	blinks := Blinks(seq, Defaults)
	if len(blinks) != 1 {
		for _, b := range blinks {
			t.Logf("blink frames %d–%d", frameOf(firstFrame, b.From), frameOf(firstFrame, b.To))
		}
		t.Fatalf("%d blinks, want exactly 1", len(blinks))
	}
	from, to := frameOf(firstFrame, blinks[0].From), frameOf(firstFrame, blinks[0].To)
	if from < 64 || from > 68 || to > 72 {
		t.Fatalf("blink frames %d–%d, want closure at 66–68", from, to)
	}
	// The closure is deep against the open-eye baseline: at most 0.55.
	base, ok := baseline(seq, openness(seq, Defaults), blinks[0].From-1, Defaults)
	if r := seq[blinks[0].From].Eyes.Mean() / base; !ok || r > 0.55 {
		t.Fatalf("closed/baseline %.2f", r)
	}
}

// TestForemanBlinkFrameRates: the blink is found, once, at 30 fps (every
// frame 50–100) and at the other 15 fps phase (odd frames 51–99).
func TestForemanBlinkFrameRates(t *testing.T) {
	for _, c := range []struct{ from, step int }{{50, 1}, {51, 2}} {
		seq := sequenceStep(t, c.from, 100-c.step+1, c.step)
		blinks := Blinks(seq, Defaults)
		if len(blinks) != 1 {
			t.Fatalf("from %d step %d: %d blinks, want 1", c.from, c.step, len(blinks))
		}
		if from := c.from + c.step*blinks[0].From; from < 64 || from > 68 {
			t.Fatalf("from %d step %d: blink closes at frame %d", c.from, c.step, from)
		}
	}
}

// TestForemanSquintsAreNotBlinks cuts streams that start inside the squint
// stretches, so the baseline is built from squinting eyes or from the wide
// eyes just before the look down: neither the squint into the sun (13–33)
// nor the look down (72–82) yields a blink.
func TestForemanSquintsAreNotBlinks(t *testing.T) {
	for _, r := range [][2]int{{14, 34}, {70, 84}} {
		if b := Blinks(sequence(t, r[0], r[1]), Defaults); len(b) != 0 {
			t.Errorf("frames %d–%d: %d blinks", r[0], r[1], len(b))
		}
	}
}

// TestForemanYaw: yaw follows the head. Sign: positive is the subject's
// own left (nose towards the image's right). Facing the camera while
// talking (frames 20–66) it stays within ±5°; it peaks at +33° (69–82),
// −30° (83–94) and over +50° (156–170).
func TestForemanYaw(t *testing.T) {
	byNum, _ := signals(t)
	span := func(from, to int) (lo, hi float64) {
		lo, hi = 1e9, -1e9
		for n := from; n <= to; n += 2 {
			s := byNum[n]
			if s.Faces != 1 {
				t.Fatalf("frame %d: %d faces", n, s.Faces)
			}
			lo, hi = min(lo, s.Pose.Yaw), max(hi, s.Pose.Yaw)
		}
		return lo, hi
	}
	if lo, hi := span(20, 66); lo < -5 || hi > 5 {
		t.Errorf("frontal frames 20–66: yaw %.1f..%.1f", lo, hi)
	}
	if _, hi := span(70, 80); hi < 28 || hi > 40 {
		t.Errorf("left turn 70–80: peak %.1f", hi)
	}
	if lo, _ := span(84, 92); lo > -25 || lo < -40 {
		t.Errorf("right turn 84–92: peak %.1f", lo)
	}
	if _, hi := span(156, 170); hi < 45 {
		t.Errorf("turn 156–170: peak %.1f", hi)
	}
	turns := Turns(sequence(t, 36, 96), SyntheticSetDefaults)
	if len(turns) != 2 || turns[0].Kind != TurnLeft || turns[1].Kind != TurnRight {
		t.Fatalf("turns in 36–96, synthetic-set rules: %+v", turns)
	}
	// At 15° the start of his next turn (frame 96, +17° from his
	// straight-ahead) counts as a turn held at the stream's end.
	turns = Turns(sequence(t, 36, 96), Defaults)
	if len(turns) != 3 || turns[0].Kind != TurnLeft || turns[1].Kind != TurnRight || turns[2].From != 30 {
		t.Fatalf("turns in 36–96: %+v", turns)
	}
}

// TestForemanFaces: a face is confirmed on every frame where one is in
// view, and false detections never count as a second face.
func TestForemanFaces(t *testing.T) {
	byNum, _ := signals(t)
	for n := range byNum {
		if byNum[n].Faces != 1 {
			t.Errorf("frame %d: %d faces", n, byNum[n].Faces)
		}
	}
}
