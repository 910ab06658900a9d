package liveness

import (
	"math"
	"sort"
	"time"
)

// Reason is a stable code for why a check or step failed; the codes are
// part of the public result.
type Reason string

// Stream-level reasons.
const (
	ChallengeExpired  Reason = "challenge_expired"
	TooFewFrames      Reason = "too_few_frames"
	TimestampsOrder   Reason = "timestamps_not_increasing"
	FrameGap          Reason = "frame_gap_too_long"
	FrameRate         Reason = "frame_rate_out_of_bounds"
	StreamTooLong     Reason = "stream_longer_than_challenge"
	MultipleFaces     Reason = "multiple_faces"
	FaceLost          Reason = "face_lost"
	FaceJumped        Reason = "face_jumped"
	DifferentPerson   Reason = "different_person"
	NoFrontalFrame    Reason = "no_frontal_frame"
	StepsNotCompleted Reason = "steps_not_completed"
)

// Step-level reasons.
const (
	StepNotObserved Reason = "not_observed" // no matching gesture after it was asked
	StepTimeout     Reason = "timeout"      // done, but later than StepTimeout after asked
	StepWrong       Reason = "wrong_step"   // a turn other than the one asked came first
	StepNotReached  Reason = "not_reached"  // an earlier step failed
	// A turn towards the asked side was seen after it was asked, at least
	// half of TurnAngle from straight-ahead but never past it: the person
	// should turn further.
	StepNotFarEnough Reason = "not_far_enough"
)

// Reasons are every stream-level reason Decide reports, and StepReasons
// every step-level one (the end-user pages have a sentence for each).
var (
	Reasons = []Reason{ChallengeExpired, TooFewFrames, TimestampsOrder, FrameGap, FrameRate, StreamTooLong,
		MultipleFaces, FaceLost, FaceJumped, DifferentPerson, NoFrontalFrame, StepsNotCompleted}
	StepReasons = []Reason{StepNotObserved, StepTimeout, StepWrong, StepNotReached, StepNotFarEnough}
)

// StepResult is one step's outcome.
type StepResult struct {
	Step   Step   `json:"step"`
	Passed bool   `json:"passed"`
	Reason Reason `json:"reason,omitempty"`
	// AtMS is the stream time (ms) the step was completed.
	AtMS int64 `json:"at_ms,omitempty"`
}

// Result is the challenge's verdict.
type Result struct {
	Live     bool         `json:"webcam_appears_live"`
	Nonce    string       `json:"nonce"`
	Steps    []StepResult `json:"steps"`
	Failures []Reason     `json:"failures"`
	// Selfie is the index of the best frontal frame (the face-match
	// selfie), -1 when none qualifies.
	Selfie int `json:"selfie_frame"`
	Frames int `json:"frames"`
}

// Decide judges signals (one per frame, in the order received) against the
// challenge at server time now.
func Decide(ch Challenge, sig []Signal, now time.Time, cfg Config) Result {
	r := Result{Nonce: ch.Nonce, Frames: len(sig), Failures: []Reason{}}
	fail := func(reason Reason) { r.Failures = append(r.Failures, reason) }
	if now.After(ch.ExpiresAt) {
		fail(ChallengeExpired)
	}
	for _, reason := range timing(sig, now.Sub(ch.IssuedAt), cfg) {
		fail(reason)
	}
	tracked, jumped := track(sig, cfg)
	for _, reason := range presence(sig, cfg) {
		fail(reason)
	}
	if jumped {
		fail(FaceJumped)
	}
	r.Selfie = selfie(sig, cfg)
	if r.Selfie < 0 {
		fail(NoFrontalFrame)
	} else if !samePerson(sig, cfg) {
		fail(DifferentPerson)
	}
	r.Steps = steps(ch, tracked, cfg)
	for _, s := range r.Steps {
		if !s.Passed {
			fail(StepsNotCompleted)
			break
		}
	}
	r.Live = len(r.Failures) == 0
	return r
}

// timing checks the client timestamps: strictly increasing, no long gap,
// an average frame rate in bounds, and no more stream time than has
// passed on the server since the challenge was issued.
func timing(sig []Signal, elapsed time.Duration, cfg Config) []Reason {
	if len(sig) < max(cfg.MinFrames, 2) {
		return []Reason{TooFewFrames}
	}
	var out []Reason
	for i := 1; i < len(sig); i++ {
		if sig[i].T <= sig[i-1].T || sig[i-1].T < 0 {
			return append(out, TimestampsOrder)
		}
	}
	for i := 1; i < len(sig); i++ {
		if sig[i].T-sig[i-1].T > cfg.MaxFrameGap {
			out = append(out, FrameGap)
			break
		}
	}
	span := sig[len(sig)-1].T - sig[0].T
	fps := float64(len(sig)-1) / span.Seconds()
	if fps < cfg.MinFPS || fps > cfg.MaxFPS {
		out = append(out, FrameRate)
	}
	if sig[len(sig)-1].T > elapsed+cfg.ClockSlack {
		out = append(out, StreamTooLong)
	}
	return out
}

// presence checks one face throughout: never a second one for long
// (multiFace), and no long or frequent absences.
func presence(sig []Signal, cfg Config) []Reason {
	var out []Reason
	missing, lost := 0, false
	var gapStart time.Duration = -1
	for _, s := range sig {
		if s.Faces == 0 {
			missing++
			if gapStart < 0 {
				gapStart = s.T
			}
			if s.T-gapStart > cfg.MaxFaceGap {
				lost = true
			}
			continue
		}
		gapStart = -1
	}
	if multiFace(sig, cfg) {
		out = append(out, MultipleFaces)
	}
	if lost || (len(sig) > 0 && float64(missing)/float64(len(sig)) > cfg.MaxNoFaceFrac) {
		out = append(out, FaceLost)
	}
	return out
}

// track follows the face from one face frame to the next (descriptors
// are only taken near frontal, so a face swapped in while the head is
// turned must show up here) and reports whether it jumped in place or
// size. With TrackGlitch, a single frame that jumps while the next face
// frame is where the frame before it puts the face is the mesh's
// misreading, not a new face: it is forgiven, and taken out of the
// frames the steps are judged on (returned as tracked, the frame without
// its face), so a frame the tracking disowns can never make a gesture.
func track(sig []Signal, cfg Config) (tracked []Signal, jumped bool) {
	tracked = append([]Signal(nil), sig...)
	prev := -1 // last face frame the track follows
	for i, s := range sig {
		if s.Faces == 0 {
			continue
		}
		if prev < 0 || !jump(sig[prev], s, cfg) {
			prev = i
			continue
		}
		if cfg.TrackGlitch {
			if next := nextFace(sig, i); next >= 0 && !jump(sig[prev], sig[next], cfg) {
				tracked[i] = Signal{T: s.T}
				continue
			}
		}
		jumped = true
		prev = i
	}
	return tracked, jumped
}

func nextFace(sig []Signal, i int) int {
	for j := i + 1; j < len(sig); j++ {
		if sig[j].Faces > 0 {
			return j
		}
	}
	return -1
}

// multiFace reports whether a second face stayed in view for
// MultiFaceSpan: frames with more than one face, each at most one frame
// after the previous such frame, from the run's first to its last. One
// frame with a stray second face does not decide the stream.
func multiFace(sig []Signal, cfg Config) bool {
	start, last := -1, -1
	for i, s := range sig {
		if s.Faces < 2 {
			continue
		}
		if start < 0 || i-last > 2 {
			start = i
		}
		last = i
		if sig[last].T-sig[start].T >= cfg.MultiFaceSpan {
			return true
		}
	}
	return false
}

// jump reports whether the face moved or scaled too far from a to b: it
// may move MaxTrackMove of its size, and TrackSpeed sizes a second more
// for the time between the two frames (a real head moves as far in a
// long gap between frames as in several short ones) up to TrackSpan of
// it, and scale at most MaxTrackScale times.
func jump(a, b Signal, cfg Config) bool {
	size := math.Max(a.Size, b.Size)
	if !(math.Min(a.Size, b.Size) > 0) {
		return true
	}
	move := math.Hypot(a.Centre[0]-b.Centre[0], a.Centre[1]-b.Centre[1]) / size
	dt := b.T - a.T
	if cfg.TrackSpan > 0 {
		dt = min(dt, cfg.TrackSpan)
	}
	allowed := cfg.MaxTrackMove + cfg.TrackSpeed*dt.Seconds()
	return move > allowed || size/math.Min(a.Size, b.Size) > cfg.MaxTrackScale
}

// selfie picks the most frontal frame with one face and a descriptor:
// smallest |yaw| + |roll| + |pitch − median pitch| (the mesh's pitch
// reads 5–20° on an upright face, so the subject's own median is the
// neutral), eyes not closed (openness at least the median), and not
// blurred (the inner face's sharpness at least cfg.SelfieSharpness of
// the median of those frames: a head swinging back through
// straight-ahead is at its most frontal while it moves fastest).
func selfie(sig []Signal, cfg Config) int {
	candidate := func(s Signal) bool {
		return s.Faces == 1 && s.Descriptor != nil && abs(s.Pose.Yaw) <= cfg.SelfieMaxYaw
	}
	var pitches, eyes []float64
	for _, s := range sig {
		if candidate(s) {
			pitches = append(pitches, s.Pose.Pitch)
			eyes = append(eyes, s.Eyes.Mean())
		}
	}
	if len(pitches) == 0 {
		return -1
	}
	neutral, open := median(pitches), median(eyes)
	var sharpness []float64
	for _, s := range sig {
		if candidate(s) && s.Eyes.Mean() >= open {
			sharpness = append(sharpness, s.Sharpness)
		}
	}
	sharp := cfg.SelfieSharpness * median(sharpness)
	best, bestScore := -1, math.Inf(1)
	for i, s := range sig {
		if !candidate(s) || s.Eyes.Mean() < open || s.Sharpness < sharp {
			continue
		}
		if score := abs(s.Pose.Yaw) + abs(s.Pose.Roll) + abs(s.Pose.Pitch-neutral); score < bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// samePerson requires every two described frames within SameDistance of
// each other. Pairs, not distance to one reference, so that no share of
// spliced frames, however large, can pull the reference their way.
func samePerson(sig []Signal, cfg Config) bool {
	var descs [][]float32
	for _, s := range sig {
		if s.Descriptor != nil {
			descs = append(descs, s.Descriptor)
		}
	}
	for i, a := range descs {
		for _, b := range descs[i+1:] {
			if len(a) != len(b) || distance(a, b) > cfg.SameDistance {
				return false
			}
		}
	}
	return len(descs) > 0
}

// distance is the Euclidean distance between two descriptors.
func distance(a, b []float32) float64 {
	var d float64
	for i := range a {
		v := float64(a[i] - b[i])
		d += v * v
	}
	return math.Sqrt(d)
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// lastBlink is the last of the blinks from first on (events sorted by
// their end) that ends before any other gesture begins after first, and
// within timeout of asked (Config.BlinkLast). A gesture begins at a turn's
// start, or where the head is first turned half of TurnAngle from
// straight-ahead (a turn begun, as turnReach counts one for
// not_far_enough, so that a turn stopped short is still named so).
func lastBlink(sig []Signal, events []Event, first Event, asked, timeout time.Duration, cfg Config) Event {
	next := time.Duration(math.MaxInt64)
	for _, n := range events {
		if n.Kind != Blink && n.Start >= first.End {
			next = min(next, n.Start)
		}
	}
	base := StraightAheads(sig, cfg)
	for i, s := range sig {
		if s.T >= first.End && s.Faces > 0 && abs(s.Pose.Yaw-base[i]) >= cfg.TurnAngle/2 {
			next = min(next, s.T)
			break
		}
	}
	last := first
	for _, n := range events {
		if n.Kind == Blink && n.Start > last.End && n.End < next && (timeout <= 0 || n.End-asked <= timeout) {
			last = n
		}
	}
	return last
}

// steps matches gestures to the asked steps in order. Step k is asked at
// the stream start (k = 0) or when step k−1 was completed; an event counts
// only if it became unmistakable after that. Blinks are involuntary, so a
// blink nobody asked for is ignored; a head turn is deliberate, so a turn
// other than the pending step fails it (wrong order or wrong side).
func steps(ch Challenge, sig []Signal, cfg Config) []StepResult {
	events := append(Blinks(sig, cfg), Turns(sig, cfg)...)
	sort.Slice(events, func(i, j int) bool { return events[i].End < events[j].End })
	out := make([]StepResult, len(ch.Steps))
	for i, s := range ch.Steps {
		out[i] = StepResult{Step: s, Reason: StepNotObserved}
	}
	timeout := time.Duration(ch.StepTimeoutMS) * time.Millisecond
	k := 0
	var asked time.Duration
	if len(sig) > 0 {
		asked = sig[0].T
	}
match:
	for _, e := range events {
		if k == len(ch.Steps) {
			break
		}
		// The first step may use the very first frame; later ones need
		// an event that began after the previous one ended, strictly
		// for one of the same kind (the same event), or at its end for
		// another gesture (a head that starts to turn in the frame the
		// eyes reopen).
		if e.Start < asked || (k > 0 && e.Start == asked && (!cfg.OverlapGestures || e.Kind == ch.Steps[k-1])) {
			continue
		}
		want := ch.Steps[k]
		switch {
		case cfg.TurnRepeat && k > 0 && e.Kind != want && e.Kind == ch.Steps[k-1]:
			// The step just passed, done again: a person who did
			// not know it was already seen, not a wrong order.
			continue
		case e.Kind == want && timeout > 0 && e.End-asked > timeout:
			out[k] = StepResult{Step: want, Reason: StepTimeout, AtMS: e.End.Milliseconds()}
			break match
		case e.Kind == want:
			if want == Blink && cfg.BlinkLast && k+1 < len(ch.Steps) && ch.Steps[k+1] != Blink {
				e = lastBlink(sig, events, e, asked, timeout, cfg)
			}
			out[k] = StepResult{Step: want, Passed: true, AtMS: e.End.Milliseconds()}
			k++
			asked = e.End
		case e.Kind != Blink:
			out[k].Reason = StepWrong
			break match
		}
	}
	// A turn not seen: say so when it was begun but not taken far enough.
	if k < len(out) && out[k].Reason == StepNotObserved && ch.Steps[k] != Blink {
		side := 1.0
		if ch.Steps[k] == TurnRight {
			side = -1
		}
		if r := turnReach(sig, asked, side, cfg); r >= cfg.TurnAngle/2 && r <= cfg.TurnAngle {
			out[k].Reason = StepNotFarEnough
		}
	}
	// Steps after a failed one were never fairly asked.
	failed := false
	for i := range out {
		if failed {
			out[i] = StepResult{Step: out[i].Step, Reason: StepNotReached}
		}
		if !out[i].Passed {
			failed = true
		}
	}
	return out
}
