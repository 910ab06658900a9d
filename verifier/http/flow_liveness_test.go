package http

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/flow"
)

// The liveness answer through HTTP tells the page what went wrong with
// each step, in the person's own left and right, as the frames arrive
// from the page (unmirrored): Foreman turning to his left, then his
// right (frames 36–96) answers blink, turn_left, turn_right; the same
// frames mirrored are a person turning right first, so turn_left is
// wrong_step; and a left turn begun but stopped at about 15° (frames
// 36–70 and back) is not_far_enough ("turn your head further to your
// left").
func TestFlowLivenessReasons(t *testing.T) {
	h := newFlowHarness(t, openSQLite)
	_, tok := h.link(`{}`)
	frames, ms := foremanAnswer(t)
	judge := func(frames [][]byte, ms []float64) flow.LivenessAnswer {
		t.Helper()
		ch := h.challenge(tok) // blink, turn_left, turn_right (OrderedRand)
		h.clock.Advance(5 * time.Second)
		var ans flow.LivenessAnswer
		h.ok(h.answer(tok, ch.ChallengeID, frames, ms), 200, &ans)
		return ans
	}

	mirrored := make([][]byte, len(frames))
	for i, f := range frames {
		mirrored[i] = mirrorJPEG(t, f)
	}
	ans := judge(mirrored, ms)
	if ans.Passed || !ans.Steps[0].Passed || ans.Steps[1].Reason != "wrong_step" || ans.Steps[2].Reason != "not_reached" {
		t.Fatalf("mirrored frames: %+v", ans)
	}

	// Frames 36–70 (every 2nd), then 68 back to 40: the blink at 66–68,
	// the head turned to about 15° at 70, and back.
	data := testData(t)
	var partial [][]byte
	var pms []float64
	add := func(n int) {
		f, err := data.ForemanFrame(n)
		if err != nil {
			t.Fatal(err)
		}
		partial = append(partial, f)
		pms = append(pms, float64(len(pms))*1000/15)
	}
	for n := 36; n <= 70; n += 2 {
		add(n)
	}
	for n := 68; n >= 40; n -= 2 {
		add(n)
	}
	ans = judge(partial, pms)
	if ans.Passed || !ans.Steps[0].Passed || ans.Steps[1].Reason != "not_far_enough" {
		t.Fatalf("a turn stopped short: %+v", ans)
	}

	if ans := judge(frames, ms); !ans.Passed {
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
