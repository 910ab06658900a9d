package liveness

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"slices"
	"testing"
	"time"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/testkit"
)

// secondPerson is Foreman frame n with another person's face
// (faces/labeled/sheldon/sheldon1.png, 150 px scaled to 105) pasted in the
// frame's top-right corner, clear of Foreman's face (about 140 px across,
// centred near 175,155), analysed as a frame at stream time at.
func secondPerson(t *testing.T, n int, at time.Duration) Signal {
	t.Helper()
	signals(t) // loads the analyser
	frame, err := jpeg.Decode(bytes.NewReader(foremanFile(t, n)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(testkit.Data(t, "testdata", "faces", "labeled", "sheldon", "sheldon1.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	other, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := frame.Bounds()
	canvas := image.NewRGBA(b)
	draw.Copy(canvas, b.Min, frame, b, draw.Src, nil)
	draw.BiLinear.Scale(canvas, image.Rect(b.Max.X-105, 8, b.Max.X, 113), other, other.Bounds(), draw.Src, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, canvas, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	s, err := fixture.an.Frame(Frame{Data: buf.Bytes(), T: at})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A real second face in one frame of a live challenge does not decide the
// stream; in view for longer than MultiFaceSpan it fails it.
func TestSecondPersonInFrames(t *testing.T) {
	ch := challenge(Blink, TurnLeft, TurnRight)
	base := sequence(t, seqFrom, seqTo)
	with := func(idx ...int) []Signal {
		seq := append([]Signal(nil), base...)
		for _, i := range idx {
			seq[i] = secondPerson(t, seqFrom+2*i, seq[i].T)
			if seq[i].Faces != 2 {
				t.Fatalf("frame %d with a second face pasted: %d faces counted", seqFrom+2*i, seq[i].Faces)
			}
			// The subject is still Foreman.
			if d := abs(seq[i].Centre[0]-base[i].Centre[0]) + abs(seq[i].Centre[1]-base[i].Centre[1]); d > 10 {
				t.Fatalf("frame %d: subject at %v, Foreman at %v", seqFrom+2*i, seq[i].Centre, base[i].Centre)
			}
		}
		return seq
	}
	if r := decide(t, ch, with(3)); !r.Live {
		t.Errorf("one frame with a second person: %v", r.Failures)
	}
	// Frames 40–60: 11 frames, 667 ms, before the blink.
	wantFailure(t, decide(t, ch, with(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)), MultipleFaces)
}

// The second-face rule's numbers at a phone's 10 fps (config.go): 5
// consecutive frames (400 ms) or 3 every other frame (400 ms) with a
// second face pass; 6 consecutive or 4 every other frame (500–600 ms)
// fail.
func TestSecondFace10FPS(t *testing.T) {
	ch := challenge(Blink, TurnLeft, TurnRight)
	at10 := func(idx ...int) []Signal {
		seq := sequence(t, seqFrom, seqTo)
		for i := range seq {
			seq[i].T = time.Duration(i) * 100 * time.Millisecond
		}
		for _, i := range idx {
			seq[i].Faces = 2
		}
		return seq
	}
	for _, c := range []struct {
		idx  []int
		live bool
	}{
		{nil, true},
		{[]int{4, 5, 6, 7, 8}, true},
		{[]int{4, 6, 8}, true},
		{[]int{4, 5, 6, 7, 8, 9}, false},
		{[]int{4, 6, 8, 10}, false},
		// Seven stray frames spread over the stream, as many as the
		// first phone capture had in 91 frames: never 500 ms.
		{[]int{2, 3, 9, 15, 16, 24, 29}, true},
	} {
		r := decide(t, ch, at10(c.idx...))
		if c.live != r.Live || (!c.live && !slices.Contains(r.Failures, MultipleFaces)) {
			t.Errorf("second face in frames %v at 10 fps: live=%v failures=%v", c.idx, r.Live, r.Failures)
		}
	}
}
