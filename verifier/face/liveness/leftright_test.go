package liveness

import (
	"bytes"
	"image"
	"image/jpeg"
	"sync"
	"testing"
	"time"
)

// Left and right are the person's own, judged on frames as the end-user
// pages send them: the camera's own picture, not the mirrored preview.
// Foreman is such a picture (the SIEMENS logo in his frames reads the
// right way round); he turns to his own left at frames 69–82 (his nose
// towards the image's right: yaw > 0) and to his own right at 83–94. The
// same frames flipped horizontally are what a camera would send of a
// person turning right, then left.

var (
	flipOnce sync.Once
	flipSigs map[int]Signal
	flipErr  error
)

// flippedSequence is Foreman frames seqFrom..seqTo (every 2nd), each
// mirrored left to right, analysed, at 15 fps.
func flippedSequence(t *testing.T) []Signal {
	t.Helper()
	signals(t) // loads the analyser, or skips without models or data
	flipOnce.Do(func() {
		flipSigs = map[int]Signal{}
		for n := seqFrom; n <= seqTo; n += 2 {
			data, err := mirror(foremanFile(t, n))
			if err != nil {
				flipErr = err
				return
			}
			if flipSigs[n], err = fixture.an.Frame(Frame{Data: data}); err != nil {
				flipErr = err
				return
			}
		}
	})
	if flipErr != nil {
		t.Fatal(flipErr)
	}
	var out []Signal
	for n := seqFrom; n <= seqTo; n += 2 {
		s := flipSigs[n]
		s.T = time.Duration(len(out)) * time.Second / 15
		out = append(out, s)
	}
	return out
}

// mirror flips a JPEG left to right.
func mirror(data []byte) ([]byte, error) {
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.X-1-(x-b.Min.X), y, img.At(x, y))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 92}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func TestLeftRightUnmirroredFrames(t *testing.T) {
	seq := sequence(t, seqFrom, seqTo)
	flip := flippedSequence(t)
	// Frame 75 (index 19): his nose towards the image's right, his own
	// left: yaw > 0; mirrored, the same turn reads as his right.
	if y, fy := seq[19].Pose.Yaw, flip[19].Pose.Yaw; y < 25 || fy > -25 {
		t.Fatalf("frame 75: yaw %.1f, mirrored %.1f", y, fy)
	}
	for _, c := range []struct {
		name  string
		seq   []Signal
		steps []Step
		live  bool
	}{
		{"as filmed, left then right", seq, []Step{Blink, TurnLeft, TurnRight}, true},
		{"as filmed, right then left", seq, []Step{Blink, TurnRight, TurnLeft}, false},
		{"mirrored, right then left", flip, []Step{Blink, TurnRight, TurnLeft}, true},
		{"mirrored, left then right", flip, []Step{Blink, TurnLeft, TurnRight}, false},
	} {
		r := decide(t, challenge(c.steps...), c.seq)
		if r.Live != c.live {
			t.Errorf("%s: live=%v failures=%v steps=%+v", c.name, r.Live, r.Failures, r.Steps)
			continue
		}
		if !c.live && (r.Steps[1].Reason != StepWrong || r.Steps[2].Reason != StepNotReached) {
			t.Errorf("%s: steps %+v, want the first turn wrong_step", c.name, r.Steps)
		}
	}
}
