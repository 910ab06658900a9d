package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/idgate/idgate/internal/testkit/gifplay"
	"github.com/idgate/idgate/verifier/face/liveness"
)

// The real set: ../shared/testdata/liveness/real, brought by
// make testdata into var/testdata/liveness/real (testdata/README.md has
// the sources, commits and licences). Every clip is labelled here by hand
// from the set's README and checked by eye on its frames (frame numbers
// at 10 fps from 1, frame n at (n−1)×100 ms; left and right are the
// person's own on the unmirrored image), and against the analyser's yaw
// and eye readings:
//
//	smartlive        a man on a phone's front camera following a liveness
//	                 app's prompts; the image is mirrored (flipped here, as
//	                 the page's capture is not). turn_left 35–50 (peak
//	                 40–41), a partial right turn 70–82 (16° from his
//	                 straight-ahead: his app wanted more, ours takes 15°,
//	                 so in the session the right turn is done at 70–82 or
//	                 95–104), turn_right 95–104 (peak 96–101), blink
//	                 110–112 (eyes shut 70 ms: smartliveShut); no face from
//	                 119 (the app's completion card). The prompted session
//	                 is 1–118. Frames 130–176 show him again, small, in
//	                 another screen of the app: not labelled, not used.
//	intel_hp_female  a woman on a webcam, face about 45 px wide: held
//	                 turned to her right 1–6, turn_left 8–15 (peak 11–13).
//	grid_*           five GRID speakers (six clips) reading a sentence in a
//	                 studio, frontal, blinking unprompted: 30 frames each.
//	                 bbaf2n blinks 17–19 and 20–23, brbk7n 8–10, lbax4n
//	                 11–13, pwij3p 14–16 and 19–21, id2_swwp2s 11–13 and
//	                 17–20 (and a closing at 29–30 as the clip ends);
//	                 sbwe5n half closes its eyes at 10–12 (0.59 of its
//	                 baseline: read as a blink at 0.65 and at 0.6 alike)
//	                 and has no window: a partial blink is no step asked.
type realClip struct {
	name string
	// file is a GIF (its own frame delays are the capture times), or ""
	// for a directory of 10 fps frames f001.jpg….
	file     string
	mirrored bool
	// windows are the labelled live windows: what a person was doing
	// and where.
	windows []window
	// idle are windows in which the person does not do the steps asked
	// (at and shut unset): a real face at rest, which must be refused.
	idle []window
	// inPeople: the clip is in testdata/people (people.go), not in
	// liveness/real.
	inPeople bool
	// long: a long recording, of which only the frames of its windows
	// are measured for the same-person check (poses.go).
	long bool
	// until: the GIF's frames shown after this clip time are used by no
	// sequence nor by the same-person check, and are not encoded (0: all
	// are used).
	until time.Duration
}

// inWindows reports whether clip time t falls in one of c's windows.
func (c realClip) inWindows(t time.Duration) bool {
	for _, w := range append(append([]window(nil), c.windows...), c.idle...) {
		if t >= w.span.start() && t <= w.span.end() {
			return true
		}
	}
	return false
}

// span10 is a range of 10 fps frame numbers, from 1.
type span10 struct{ from, to int }

func (s span10) start() time.Duration { return time.Duration(s.from-1) * 100 * time.Millisecond }
func (s span10) end() time.Duration   { return time.Duration(s.to-1) * 100 * time.Millisecond }

// window is a labelled stretch of a clip: the frames in span, and the
// steps done in it with where each was done.
type window struct {
	name  string
	span  span10
	steps []liveness.Step
	at    []span10
	// shut is, for a GIF clip's blink, the clip time the eyes are shut
	// (checked by eye on every GIF frame): a capture that has no frame
	// in it did not see the blink.
	shut [2]time.Duration
}

var realClips = []realClip{
	// Its frames past the session (127 of its 431, after 11.8 s of its
	// 17.5 s) are another screen of the app: encoding them took 1.3 s of
	// CPU (2026-12-02) for nothing.
	{name: "smartlive", file: "smartlive.gif", mirrored: true, until: smartliveSession + 100*time.Millisecond,
		windows: []window{
			{"session, as prompted", span10{1, 118}, steps3(liveness.TurnLeft, liveness.TurnRight, liveness.Blink),
				[]span10{{35, 50}, {70, 104}, {110, 112}}, smartliveShut},
			{"turn_left", span10{20, 60}, steps3(liveness.TurnLeft), []span10{{35, 50}}, [2]time.Duration{}},
			{"turn_right", span10{85, 107}, steps3(liveness.TurnRight), []span10{{95, 104}}, [2]time.Duration{}},
			{"blink", span10{100, 118}, steps3(liveness.Blink), []span10{{110, 112}}, smartliveShut},
		},
	},
	{name: "intel_hp_female", file: "intel_hp_female.gif",
		windows: []window{{"turn_left from turned right", span10{1, 19}, steps3(liveness.TurnLeft), []span10{{8, 15}}, [2]time.Duration{}}}},
	{name: "grid_bbaf2n", windows: gridBlinks(span10{17, 19}, span10{20, 23})},
	{name: "grid_brbk7n", windows: gridBlinks(span10{8, 10})},
	{name: "grid_lbax4n", windows: gridBlinks(span10{11, 13})},
	{name: "grid_pwij3p", windows: gridBlinks(span10{14, 16}, span10{19, 21})},
	{name: "grid_id2_swwp2s", windows: gridBlinks(span10{11, 13}, span10{17, 20})},
	{name: "grid_sbwe5n"},
}

// smartliveShut: the prompted blink's eyes are shut in three GIF frames,
// 11030–11099 ms (half shut to 11150 ms): 70 ms, so a 10 fps capture
// can fall on either side of it.
var smartliveShut = [2]time.Duration{11030 * time.Millisecond, 11099 * time.Millisecond}

func steps3(s ...liveness.Step) []liveness.Step { return s }

// gridBlinks are a GRID clip's windows: the whole clip with every blink
// asked in turn, and the first blink alone (a later one follows the
// blink before it too closely for a lead-in of its own: the engine
// needs a second of open eyes before a blink, which the page's stream
// holds and a cut window would not).
func gridBlinks(blinks ...span10) []window {
	all := window{name: "session", span: span10{1, 30}}
	for _, b := range blinks {
		all.steps, all.at = append(all.steps, liveness.Blink), append(all.at, b)
	}
	first := window{"first blink", span10{1, 30}, steps3(liveness.Blink), blinks[:1], [2]time.Duration{}}
	if len(blinks) < 2 {
		return []window{first}
	}
	return []window{all, first}
}

// realFrame is one decoded frame of a clip at its capture time.
type realFrame struct {
	t    time.Duration
	data []byte // JPEG, unmirrored
	// src is the clip time of the frame a capture sent (t is its tick).
	src time.Duration
}

// clip is c's frames (loadClip), decoded on first use.
func (s *source) clip(c realClip) ([]realFrame, error) {
	if f, ok := s.clips[c.name]; ok {
		return f, nil
	}
	dir := s.real
	if c.inPeople {
		dir = s.people
	}
	f, err := loadClip(dir, c)
	if err != nil {
		return nil, err
	}
	if s.clips == nil {
		s.clips = map[string][]realFrame{}
	}
	s.clips[c.name] = f
	return f, nil
}

// loadClip decodes a clip's frames in capture order.
func loadClip(dir string, c realClip) ([]realFrame, error) {
	if c.file == "" {
		var out []realFrame
		for n := 1; ; n++ {
			b, err := os.ReadFile(filepath.Join(dir, c.name, fmt.Sprintf("f%03d.jpg", n)))
			if os.IsNotExist(err) && n > 1 {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			out = append(out, realFrame{t: time.Duration(n-1) * 100 * time.Millisecond, data: b})
		}
	}
	var out []realFrame
	err := gifplay.Play(filepath.Join(dir, c.file), func(f gifplay.Frame) error {
		if c.until > 0 && f.At > c.until {
			return errUnused
		}
		img := f.Image
		if c.mirrored {
			img = gifplay.Mirror(img)
		}
		data, err := encode(img)
		if err != nil {
			return err
		}
		out = append(out, realFrame{t: f.At, data: data})
		return nil
	})
	if err == errUnused {
		err = nil
	}
	return out, err
}

// errUnused stops loadClip at a clip's until.
var errUnused = errors.New("past the frames used")

// capture samples a clip as a camera at fps would deliver it from from
// to to: at each tick the frame shown then (a GIF frame shown across two
// ticks is sent twice, one shorter than a tick can be skipped), each sent
// frame stamped with its tick. phase shifts the ticks by that share of
// a tick.
func capture(frames []realFrame, from, to time.Duration, fps, phase float64) ([]realFrame, error) {
	tick := time.Duration(float64(time.Second) / fps)
	var out []realFrame
	k := 0
	for t := from + time.Duration(phase*float64(tick)); t <= to; t += tick {
		for k+1 < len(frames) && frames[k+1].t <= t {
			k++
		}
		out = append(out, realFrame{t: t - from, data: frames[k].data, src: frames[k].t})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no frames in %v–%v", from, to)
	}
	return out, nil
}

// realSequences are the real clips' labelled windows as live sequences:
// each GIF window as a camera at 10 and 15 fps would deliver it (two
// tick phases each; a GIF frame shown across two ticks is sent twice,
// one shorter than a tick is dropped), each GRID window at its 10 fps and
// with one frame in four sent twice (a camera that doubles frames).
//
// A capture whose frames all miss a blink's shut eyes (smartliveShut) is
// not a person blinking on camera and is left out, and named in missed,
// as set.go's sampled leaves out Foreman's. Idle windows (a real face
// not doing what is asked) are sequences of class realIdle, at the same
// rates.
func realSequences(src *source) (out []sequence, missed []string, err error) {
	for _, c := range src.realClips() {
		frames, err := src.clip(c)
		if err != nil {
			return nil, nil, err
		}
		for _, w := range c.windows {
			for _, r := range realRates(c, w) {
				got, err := captureWindow(frames, c, w, r)
				if err != nil {
					return nil, nil, err
				}
				if w.shut != [2]time.Duration{} && !slices.ContainsFunc(got, func(f realFrame) bool { return f.src >= w.shut[0] && f.src <= w.shut[1] }) {
					missed = append(missed, fmt.Sprintf("%s %s, %s", c.name, w.name, r.name))
					continue
				}
				seq := realSequence(c, w, r, got, "live")
				for _, at := range w.at {
					seq.labels = append(seq.labels, seq.indexes(at.start()-w.span.start(), at.end()-w.span.start()))
				}
				out = append(out, seq)
			}
		}
		for _, w := range c.idle {
			for _, r := range realRates(c, w) {
				got, err := captureWindow(frames, c, w, r)
				if err != nil {
					return nil, nil, err
				}
				out = append(out, realSequence(c, w, r, got, realIdle))
			}
		}
	}
	return out, missed, nil
}

// captureWindow is window w of clip c as rate r delivers it.
func captureWindow(frames []realFrame, c realClip, w window, r rate) ([]realFrame, error) {
	got, err := capture(frames, w.span.start(), w.span.end()+50*time.Millisecond, r.fps, r.phase)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", c.name, w.name, err)
	}
	if r.double > 0 {
		got = doubleEvery(got, r.double)
	}
	if r.stall != (span10{}) {
		got = without(got, w.span.start(), r.stall)
	}
	return got, nil
}

// realSequence is a captured window as a sequence of class, unlabelled.
func realSequence(c realClip, w window, r rate, got []realFrame, class string) sequence {
	seq := sequence{name: fmt.Sprintf("%s %s, %s", c.name, w.name, r.name), class: class, steps: w.steps, fps: r.fps, clip: c.name,
		refused: knownRefused[c.name+" "+w.name]}
	for _, f := range got {
		seq.frames = append(seq.frames, frameRef{data: f.data})
		seq.times = append(seq.times, f.t)
	}
	return seq
}

type rate struct {
	name       string
	fps, phase float64
	double     int
	// stall: no frames in this stretch of the clip (a phone that froze).
	stall span10
}

func realRates(c realClip, w window) []rate {
	if c.file == "" {
		return []rate{{"10 fps", 10, 0, 0, span10{}}, {"10 fps, every 4th frame doubled", 10, 0, 4, span10{}}}
	}
	out := []rate{{"10 fps", 10, 0, 0, span10{}}, {"10 fps phase ½", 10, 0.5, 0, span10{}}, {"15 fps", 15, 0, 0, span10{}}, {"15 fps phase ½", 15, 0.5, 0, span10{}}}
	if st, ok := stalls[c.name+" "+w.name]; ok {
		out = append(out, rate{fmt.Sprintf("12 fps, no frames for 1.1 s at %d–%d", st.from, st.to), 12, 0, 0, st})
	}
	return out
}

// stalls are where the phone capture's windows are also sent as a page
// asking 12 fps delivers them on a busy phone: nothing for 1.1 s (the
// end-user page in Chromium on a loaded machine stalled 1.0–1.1 s once a
// stream, liveness Defaults), here where nothing is asked: between his
// left turn's return and his partial right turn, and before his left
// turn.
var stalls = map[string]span10{
	"smartlive session, as prompted": {56, 66},
	"smartlive turn_left":            {22, 32},
}

// without drops the frames of a capture that began at clip time from
// whose ticks fall in the stretch st of the clip, 1.1 s for 11 frames of
// 10 fps, keeping the rest as they were.
func without(frames []realFrame, from time.Duration, st span10) []realFrame {
	var out []realFrame
	for _, f := range frames {
		if at := from + f.t; at < st.start() || at >= st.end()+100*time.Millisecond {
			out = append(out, f)
		}
	}
	return out
}

// doubleEvery sends every nth frame twice, the copy half a frame later
// (a camera that delivers a frame again), so the stream's timing is
// irregular.
func doubleEvery(frames []realFrame, n int) []realFrame {
	var out []realFrame
	for i, f := range frames {
		out = append(out, f)
		if i%n == 1 && i+1 < len(frames) {
			out = append(out, realFrame{t: f.t + (frames[i+1].t-f.t)/2, data: f.data})
		}
	}
	return out
}

// indexes is the range of stream frames captured from from to to (to
// widened by one 10 fps frame, the label's last frame lasting 100 ms).
func (s sequence) indexes(from, to time.Duration) [2]int {
	r := [2]int{-1, -1}
	for i, t := range s.times {
		if t >= from && r[0] < 0 {
			r[0] = i
		}
		if t <= to+100*time.Millisecond {
			r[1] = i
		}
	}
	if r[0] < 0 {
		r[0] = len(s.times) - 1
	}
	return r
}
