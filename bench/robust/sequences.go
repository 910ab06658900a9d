package main

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/image/draw"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// sequence is one liveness stream of real frames and whether a live
// person answering the challenge made it.
type sequence struct {
	name      string
	live      bool
	challenge []liveness.Step
	fps       float64
	frames    [][]byte
}

var askBlinkLeftRight = []liveness.Step{liveness.Blink, liveness.TurnLeft, liveness.TurnRight}

// sequences builds the liveness set from Foreman (a blink at frame 66, a
// turn to his left 69–82, to his right 83–94) and another person's face
// (faces/labeled/sheldon/sheldon1.png): live streams at 15 and 30 fps,
// the same with a second face in one or two frames (a stray detection or a
// passer-by), and the attacks the engine must refuse.
func sequences(data dataSets) ([]sequence, error) {
	frame := func(n int) ([]byte, error) {
		return os.ReadFile(filepath.Join(data.liveness, "foreman", fmt.Sprintf("f%03d.jpg", n)))
	}
	other, err := os.ReadFile(filepath.Join(data.faces, "labeled", "sheldon", "sheldon1.png"))
	if err != nil {
		return nil, err
	}
	otherImg, _, err := image.Decode(bytes.NewReader(other))
	if err != nil {
		return nil, err
	}
	run := func(from, to, step int) ([][]byte, error) {
		var out [][]byte
		for n := from; n <= to; n += step {
			data, err := frame(n)
			if err != nil {
				return nil, err
			}
			out = append(out, data)
		}
		return out, nil
	}
	at15, err := run(36, 96, 2)
	if err != nil {
		return nil, err
	}
	odd15, err := run(51, 99, 2)
	if err != nil {
		return nil, err
	}
	at30, err := run(50, 100, 1)
	if err != nil {
		return nil, err
	}
	// withSecond pastes the other face (105 px, top right, clear of
	// Foreman's ~140 px face) into the frames at idx.
	withSecond := func(frames [][]byte, idx ...int) ([][]byte, error) {
		out := append([][]byte(nil), frames...)
		for _, i := range idx {
			pasted, err := paste(frames[i], otherImg)
			if err != nil {
				return nil, err
			}
			out[i] = pasted
		}
		return out, nil
	}
	span := func(from, to int) []int {
		var idx []int
		for i := from; i <= to; i++ {
			idx = append(idx, i)
		}
		return idx
	}
	still := make([][]byte, 31)
	for i := range still {
		still[i] = at15[2]
	}
	moved, err := movedPhoto(at15[2], 31)
	if err != nil {
		return nil, err
	}
	spliced := append([][]byte(nil), at15...)
	spliced[4], spliced[5] = other, other
	splicedHalf := append([][]byte(nil), at15...)
	for i := range 15 {
		splicedHalf[i] = other
	}
	seqs := []sequence{
		{name: "Foreman 36–96, 15 fps", live: true, frames: at15},
		{name: "Foreman 51–99, 15 fps", live: true, frames: odd15},
		{name: "Foreman 50–100, 30 fps", live: true, frames: at30, fps: 30},
	}
	for _, c := range []struct {
		name   string
		frames [][]byte
		idx    []int
		fps    float64
		live   bool
	}{
		{"15 fps, a second face in frame 3", at15, []int{3}, 15, true},
		{"15 fps, a second face in frame 12", at15, []int{12}, 15, true},
		{"15 fps, a second face in frames 5 and 25", at15, []int{5, 25}, 15, true},
		{"30 fps, a second face in frames 10–11", at30, []int{10, 11}, 30, true},
		{"attack: a second person in view 667 ms", at15, span(2, 12), 15, false},
		{"attack: a second person throughout", at15, span(0, len(at15)-1), 15, false},
	} {
		frames, err := withSecond(c.frames, c.idx...)
		if err != nil {
			return nil, err
		}
		seqs = append(seqs, sequence{name: c.name, live: c.live, frames: frames, fps: c.fps})
	}
	seqs = append(seqs,
		sequence{name: "attack: still image", frames: still},
		sequence{name: "attack: photo moved in front of the camera", frames: moved},
		sequence{name: "attack: another person spliced in 2 frames", frames: spliced},
		sequence{name: "attack: another person spliced in the first half", frames: splicedHalf},
		sequence{name: "attack: clip replayed to another step order", frames: at15,
			challenge: []liveness.Step{liveness.Blink, liveness.TurnRight, liveness.TurnLeft}},
	)
	for i := range seqs {
		if seqs[i].fps == 0 {
			seqs[i].fps = 15
		}
		if seqs[i].challenge == nil {
			seqs[i].challenge = askBlinkLeftRight
		}
	}
	return seqs, nil
}

// paste draws face at 105×105 px in the top-right corner of a frame.
func paste(frame []byte, face image.Image) ([]byte, error) {
	img, err := jpeg.Decode(bytes.NewReader(frame))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	dst := image.NewRGBA(b)
	draw.Copy(dst, b.Min, img, b, draw.Src, nil)
	draw.BiLinear.Scale(dst, image.Rect(b.Max.X-105, 8, b.Max.X, 113), face, face.Bounds(), draw.Src, nil)
	var buf bytes.Buffer
	err = jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90})
	return buf.Bytes(), err
}

// movedPhoto is one frame, a printed photo moved in front of the camera:
// shifted up to 12 px and scaled up to 1.06× over n frames.
func movedPhoto(frame []byte, n int) ([][]byte, error) {
	img, err := jpeg.Decode(bytes.NewReader(frame))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	var out [][]byte
	for i := range n {
		f := float64(i) / float64(n-1)
		s := 1 + 0.06*f
		w, h := int(float64(b.Dx())*s), int(float64(b.Dy())*s)
		dx, dy := int(12*f)-(w-b.Dx())/2, int(6*f)-(h-b.Dy())/2
		dst := image.NewRGBA(b)
		draw.BiLinear.Scale(dst, image.Rect(dx, dy, dx+w, dy+h), img, b, draw.Src, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90}); err != nil {
			return nil, err
		}
		out = append(out, buf.Bytes())
	}
	return out, nil
}

// livenessAfter judges a sequence with today's analyser.
func livenessAfter(an *liveness.Analyzer, s sequence) (liveness.Result, error) {
	frames := make([]liveness.Frame, len(s.frames))
	for i, data := range s.frames {
		frames[i] = liveness.Frame{Data: data, T: time.Duration(float64(i) / s.fps * float64(time.Second))}
	}
	now := time.Now()
	ch := liveness.Challenge{Nonce: "bench", Steps: s.challenge, IssuedAt: now.Add(-frames[len(frames)-1].T - time.Second),
		ExpiresAt: now.Add(time.Minute), StepTimeoutMS: liveness.Defaults.StepTimeout.Milliseconds()}
	return an.Run(ch, frames, now)
}

// livenessBefore judges the same frames, written to dir, with the
// baseline's `face liveness`.
func livenessBefore(b *baseline, dir string, k int, s sequence) (liveness.Result, error) {
	args := []string{"face", "liveness", "--challenge", stepList(s.challenge), "--fps", fmt.Sprint(s.fps)}
	for i, data := range s.frames {
		path, err := writeFile(dir, fmt.Sprintf("seq%02d-%03d.jpg", k, i), data)
		if err != nil {
			return liveness.Result{}, err
		}
		args = append(args, path)
	}
	var rep struct {
		Result liveness.Result `json:"result"`
	}
	err := b.run(&rep, args...)
	return rep.Result, err
}

func stepList(steps []liveness.Step) string {
	s := make([]string, len(steps))
	for i, st := range steps {
		s[i] = string(st)
	}
	return strings.Join(s, ",")
}
