package liveness

import (
	"math"
	"sort"
	"time"
)

// Event is a gesture found in the signals. Start is when it became
// unmistakable (eyes closed, yaw past the turn angle): a step is satisfied
// only by an event whose Start comes after the step was asked. End is when
// it was complete (eyes open again, face back to frontal).
type Event struct {
	Kind       Step
	Start, End time.Duration
	// Frame indexes of Start and End.
	From, To int
}

// openness is the eye signal of each frame: -1 when the frame has no
// face or is too far from the person's straight-ahead (or, without
// BlinkFromStraightAhead, from the camera) for eyes to be judged. Within
// BlinkNearEye of the camera it is both eyes' mean; past it the near eye
// alone (the subject's right eye when yaw > 0), as the far eye is
// foreshortened and reads half closed while open.
func openness(sig []Signal, cfg Config) []float64 {
	var base []float64
	if cfg.BlinkFromStraightAhead {
		base = StraightAheads(sig, cfg)
	}
	out := make([]float64, len(sig))
	for i, s := range sig {
		from := 0.0
		if base != nil {
			from = base[i]
		}
		switch {
		case s.Faces == 0 || abs(s.Pose.Yaw-from) > cfg.BlinkMaxYaw:
			out[i] = -1
		case cfg.BlinkNearEye <= 0 || abs(s.Pose.Yaw) <= cfg.BlinkNearEye:
			out[i] = s.Eyes.Mean()
		case s.Pose.Yaw > 0:
			out[i] = s.Eyes.Right
		default:
			out[i] = s.Eyes.Left
		}
	}
	return out
}

// Blinks finds blinks: from a frame at or above OpenRatio × baseline,
// through any half-closed frames, below CloseRatio × baseline, and back to
// OpenRatio, with each phase within its bound. The baseline is the median
// openness over BlinkBaseline up to the last open frame, so it follows the
// subject's own eyes, pose and expression (a squint held for a second is
// the new normal, not a dip). A frame that cannot be judged breaks any
// blink in progress.
func Blinks(sig []Signal, cfg Config) []Event {
	open := openness(sig, cfg)
	var out []Event
	for i := 1; i < len(sig); i++ {
		base, ok := closing(sig, open, i, cfg)
		if !ok {
			continue
		}
		if e, ok := reopen(sig, open, i, base, cfg); ok {
			out = append(out, e)
			i = e.To
		}
	}
	return out
}

// closing reports whether frame i is the first closed frame after an open
// one no more than MaxClosing earlier, with only half-closed frames
// between, and returns the baseline it was judged against.
func closing(sig []Signal, open []float64, i int, cfg Config) (float64, bool) {
	o := open[i]
	if o < 0 {
		return 0, false
	}
	for j := i - 1; j >= 0 && sig[i].T-sig[j].T <= cfg.MaxClosing; j-- {
		oj := open[j]
		if oj < 0 {
			return 0, false
		}
		base, ok := baseline(sig, open, j, cfg)
		if !ok || o >= cfg.CloseRatio*base || oj < cfg.CloseRatio*base {
			return 0, false
		}
		if oj >= cfg.OpenRatio*base {
			return base, true
		}
	}
	return 0, false
}

// reopen follows a closure starting at frame first and returns the blink
// if the eyes open again in time.
func reopen(sig []Signal, open []float64, first int, base float64, cfg Config) (Event, bool) {
	lastClosed := first
	for j := first + 1; j < len(sig); j++ {
		o := open[j]
		switch {
		case o < 0:
			return Event{}, false
		case o < cfg.CloseRatio*base:
			lastClosed = j
			if sig[j].T-sig[first].T > cfg.MaxClosed {
				return Event{}, false
			}
		case o >= cfg.OpenRatio*base:
			if sig[lastClosed+1].T-sig[first].T > cfg.MaxClosed || sig[j].T-sig[lastClosed].T > cfg.MaxReopening {
				return Event{}, false
			}
			return Event{Kind: Blink, Start: sig[first].T, End: sig[j].T, From: first, To: j}, true
		default: // between closed and open: reopening
			if sig[j].T-sig[lastClosed].T > cfg.MaxReopening {
				return Event{}, false
			}
		}
	}
	return Event{}, false
}

// baseline is the median openness of the judged frames in the
// BlinkBaseline window ending at frame end (inclusive).
func baseline(sig []Signal, open []float64, end int, cfg Config) (float64, bool) {
	var v []float64
	for k := end; k >= 0 && sig[end].T-sig[k].T <= cfg.BlinkBaseline; k-- {
		if open[k] >= 0 {
			v = append(v, open[k])
		}
	}
	if len(v) < cfg.MinBaselineRuns {
		return 0, false
	}
	sort.Float64s(v)
	return v[len(v)/2], true
}

// StraightAhead is the person's own straight-ahead yaw after every frame
// of sig. With StraightAheadSoFar: the last frame's StraightAheads (the
// median of every face frame within MaxBaselineYaw of the camera, the
// mean of the middle two for an even count, as the page takes it). With
// SettledStraightAhead: the median yaw of every face frame of the stream
// within MaxBaselineYaw of facing the camera (the frames of a turn past
// it do not count; the lead-in, the blinks and the returns between turns
// are most of a stream). Otherwise the median yaw of the face frames in
// the stream's first TurnBaseline (the first face frame when none has a
// face), bounded to ±MaxBaselineYaw; 0 when TurnBaseline is 0 or no frame
// has a face. People do not start facing the camera exactly, and a turn
// is judged from where they face when at rest.
func StraightAhead(sig []Signal, cfg Config) float64 {
	if cfg.StraightAheadSoFar {
		if len(sig) == 0 {
			return 0
		}
		return StraightAheads(sig, cfg)[len(sig)-1]
	}
	if cfg.SettledStraightAhead {
		var v []float64
		for _, s := range sig {
			if s.Faces > 0 && abs(s.Pose.Yaw) <= cfg.MaxBaselineYaw {
				v = append(v, s.Pose.Yaw)
			}
		}
		if len(v) == 0 {
			return 0
		}
		return median(v)
	}
	if cfg.TurnBaseline <= 0 || len(sig) == 0 {
		return 0
	}
	var v []float64
	for _, s := range sig {
		if s.T-sig[0].T > cfg.TurnBaseline {
			break
		}
		if s.Faces > 0 {
			v = append(v, s.Pose.Yaw)
		}
	}
	if len(v) == 0 {
		for _, s := range sig {
			if s.Faces > 0 {
				v = append(v, s.Pose.Yaw)
				break
			}
		}
	}
	if len(v) == 0 {
		return 0
	}
	return math.Max(-cfg.MaxBaselineYaw, math.Min(cfg.MaxBaselineYaw, median(v)))
}

// StraightAheads is the straight-ahead each frame is judged from. With
// StraightAheadSoFar: frame i's is the median yaw of the face frames up
// to and including i that are within MaxBaselineYaw of the camera (the
// mean of the two middle ones for an even count), 0 before the first such
// frame: exactly what the end-user page (verifier/web/src/trackersteps.ts,
// Steps.settle) holds when it reads that frame, so a turn the page calls
// done is measured from the same straight-ahead here, whatever the person
// does later in the stream. Otherwise every frame's is StraightAhead's.
func StraightAheads(sig []Signal, cfg Config) []float64 {
	out := make([]float64, len(sig))
	if !cfg.StraightAheadSoFar {
		base := StraightAhead(sig, cfg)
		for i := range out {
			out[i] = base
		}
		return out
	}
	var sorted []float64 // the qualifying yaws so far, in order
	cur := 0.0
	var seeded time.Duration // the time of the first frame counted
	for i, s := range sig {
		if len(sorted) == 0 {
			seeded = s.T
		}
		atRest := cfg.StraightAheadSeed <= 0 || s.T-seeded <= cfg.StraightAheadSeed || abs(s.Pose.Yaw-cur) <= cfg.FrontalYaw
		if s.Faces > 0 && abs(s.Pose.Yaw) <= cfg.MaxBaselineYaw && atRest {
			at := sort.SearchFloat64s(sorted, s.Pose.Yaw)
			sorted = append(sorted, 0)
			copy(sorted[at+1:], sorted[at:])
			sorted[at] = s.Pose.Yaw
			m := len(sorted) / 2
			cur = sorted[m]
			if len(sorted)%2 == 0 {
				cur = (sorted[m-1] + sorted[m]) / 2
			}
		}
		out[i] = cur
	}
	return out
}

// Turns finds head turns: from facing straight ahead (within FrontalYaw
// of StraightAheads) past TurnAngle to one side and back within
// MaxTurnTime. Back is within FrontalYaw again, or (TurnThrough) across
// straight-ahead to the other side; a turn still held at the stream's
// end counts when TurnHeld. Yaw > 0 is the subject's own left. Frames
// without a face break a turn once they last longer than TurnFaceGap.
func Turns(sig []Signal, cfg Config) []Event {
	base := StraightAheads(sig, cfg)
	var out []Event
	from := -1  // last frame facing straight ahead (or crossing it)
	side := 0.0 // +1 / -1 while turned to that side
	start := -1 // frame the turn became unmistakable
	lastFace := -1
	reset := func() { from, side = -1, 0 }
	inTime := func(i int) bool { return sig[i].T-sig[from].T <= cfg.MaxTurnTime }
	for i, s := range sig {
		if s.Faces == 0 {
			if lastFace < 0 || s.T-sig[lastFace].T > cfg.TurnFaceGap {
				reset()
			}
			continue
		}
		r := s.Pose.Yaw - base[i]
		prev := lastFace
		lastFace = i
		if side != 0 {
			switch {
			case !inTime(i):
				reset()
			case abs(r) < cfg.FrontalYaw:
				out = append(out, turn(sig, side, start, i))
				from, side = i, 0
			case cfg.TurnThrough && r*side < 0:
				// Crossed straight-ahead between prev and i: the turn
				// ended at prev, and i may already begin the next.
				out = append(out, turn(sig, side, start, prev))
				from, side = prev, -side
				start = i
				if abs(r) <= cfg.TurnAngle {
					side = 0
				}
			case r*side < 0 && abs(r) > cfg.TurnAngle:
				// Swung through to the other side without pausing at
				// straight-ahead: not a clean turn and back.
				reset()
			}
			continue
		}
		if abs(r) < cfg.FrontalYaw {
			from = i
			continue
		}
		if from < 0 || abs(r) <= cfg.TurnAngle {
			continue
		}
		side, start = 1, i
		if r < 0 {
			side = -1
		}
	}
	if side != 0 && cfg.TurnHeld && inTime(lastFace) {
		out = append(out, turn(sig, side, start, lastFace))
	}
	return out
}

// turn is the turn to side (+1 left, −1 right) from frame start to end.
func turn(sig []Signal, side float64, start, end int) Event {
	kind := TurnLeft
	if side < 0 {
		kind = TurnRight
	}
	return Event{Kind: kind, Start: sig[start].T, End: sig[end].T, From: start, To: end}
}

// turnReach is how far (degrees past straight-ahead) the face turned to
// side (+1 left, −1 right) in the face frames from time at on: the
// partial turn a "turn further" answer is about.
func turnReach(sig []Signal, at time.Duration, side float64, cfg Config) float64 {
	base := StraightAheads(sig, cfg)
	reach := 0.0
	for i, s := range sig {
		if s.T >= at && s.Faces > 0 {
			reach = math.Max(reach, (s.Pose.Yaw-base[i])*side)
		}
	}
	return reach
}
