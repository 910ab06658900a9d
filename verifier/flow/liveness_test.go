package flow_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// The liveness verdict tells the page what went wrong with each step, in
// the person's own left and right, as the frames arrive from the page
// (unmirrored): Foreman turning to his left, then his right (frames
// 36–96) answers blink, turn_left, turn_right; the same frames mirrored
// are a person turning right first, so turn_left is wrong_step; and a left
// turn begun but stopped at about 15° (frames 36–70 and back) is
// not_far_enough ("turn your head further to your left").
func TestLivenessReasons(t *testing.T) {
	r := newRig(t, parts.OpenSQLite(t))
	_, tok := r.create(`{}`) // challenges: blink, turn_left, turn_right (OrderedRand)
	frames := r.foreman()

	mirrored := make([]liveness.Frame, len(frames))
	for i, f := range frames {
		mirrored[i] = liveness.Frame{Data: mirrorJPEG(t, f.Data), T: f.T}
	}
	ans := r.answer(tok, mirrored)
	if ans.Passed || !ans.Steps[0].Passed || ans.Steps[1].Reason != "wrong_step" || ans.Steps[2].Reason != "not_reached" {
		t.Fatalf("mirrored frames: %+v", ans)
	}

	// Frames 36–70 (every 2nd), then 68 back to 40 at 15 fps: the blink at
	// 66–68, the head turned to about 15° at 70, and back.
	var partial []liveness.Frame
	add := func(n int) {
		f, err := r.data.ForemanFrame(n)
		if err != nil {
			t.Fatal(err)
		}
		partial = append(partial, liveness.Frame{Data: f, T: time.Duration(len(partial)) * time.Second / 15})
	}
	for n := 36; n <= 70; n += 2 {
		add(n)
	}
	for n := 68; n >= 40; n -= 2 {
		add(n)
	}
	ans = r.answer(tok, partial)
	if ans.Passed || !ans.Steps[0].Passed || ans.Steps[1].Reason != "not_far_enough" {
		t.Fatalf("a turn stopped short: %+v", ans)
	}

	if ans := r.answer(tok, frames); !ans.Passed {
		t.Fatalf("Foreman as filmed: %+v", ans)
	}
}

// mirrorJPEG flips a JPEG frame left to right.
func mirrorJPEG(t *testing.T, data []byte) []byte {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.X-1-(x-b.Min.X), y, img.At(x, y))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
