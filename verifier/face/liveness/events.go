package liveness

import (
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

// openness is the eye signal of a frame: both eyes' mean, or -1 when the
// frame has no face or is too far from frontal for eyes to be judged.
func openness(sig []Signal, i int, cfg Config) float64 {
	s := sig[i]
	if s.Faces == 0 || abs(s.Pose.Yaw) > cfg.BlinkMaxYaw {
		return -1
	}
	return s.Eyes.Mean()
}

// Blinks finds blinks: from a frame at or above OpenRatio × baseline,
// through any half-closed frames, below CloseRatio × baseline, and back to
// OpenRatio, with each phase within its bound. The baseline is the median
// openness over BlinkBaseline up to the last open frame, so it follows the
// subject's own eyes, pose and expression (a squint held for a second is
// the new normal, not a dip). A frame that cannot be judged breaks any
// blink in progress.
func Blinks(sig []Signal, cfg Config) []Event {
	var out []Event
	for i := 1; i < len(sig); i++ {
		base, ok := closing(sig, i, cfg)
		if !ok {
			continue
		}
		if e, ok := reopen(sig, i, base, cfg); ok {
			out = append(out, e)
			i = e.To
		}
	}
	return out
}

// closing reports whether frame i is the first closed frame after an open
// one no more than MaxClosing earlier, with only half-closed frames
// between, and returns the baseline it was judged against.
func closing(sig []Signal, i int, cfg Config) (float64, bool) {
	o := openness(sig, i, cfg)
	if o < 0 {
		return 0, false
	}
	for j := i - 1; j >= 0 && sig[i].T-sig[j].T <= cfg.MaxClosing; j-- {
		oj := openness(sig, j, cfg)
		if oj < 0 {
			return 0, false
		}
		base, ok := baseline(sig, j, cfg)
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
func reopen(sig []Signal, first int, base float64, cfg Config) (Event, bool) {
	lastClosed := first
	for j := first + 1; j < len(sig); j++ {
		o := openness(sig, j, cfg)
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
func baseline(sig []Signal, end int, cfg Config) (float64, bool) {
	var v []float64
	for k := end; k >= 0 && sig[end].T-sig[k].T <= cfg.BlinkBaseline; k-- {
		if o := openness(sig, k, cfg); o >= 0 {
			v = append(v, o)
		}
	}
	if len(v) < cfg.MinBaselineRuns {
		return 0, false
	}
	sort.Float64s(v)
	return v[len(v)/2], true
}

// Turns finds head turns: from frontal (|yaw| < FrontalYaw) past
// TurnAngle to one side and back to frontal within MaxTurnTime. Yaw > 0
// is the subject's own left. Frames without a face break a turn.
func Turns(sig []Signal, cfg Config) []Event {
	var out []Event
	frontal := -1 // last frontal frame
	for i := 0; i < len(sig); i++ {
		s := sig[i]
		if s.Faces == 0 {
			frontal = -1
			continue
		}
		y := s.Pose.Yaw
		if abs(y) < cfg.FrontalYaw {
			frontal = i
			continue
		}
		if frontal < 0 || abs(y) <= cfg.TurnAngle {
			continue
		}
		kind := TurnLeft
		if y < 0 {
			kind = TurnRight
		}
		start := i
		for j := i + 1; j < len(sig); j++ {
			if sig[j].Faces == 0 || sig[j].T-sig[frontal].T > cfg.MaxTurnTime {
				frontal, i = -1, j
				break
			}
			if yj := sig[j].Pose.Yaw; abs(yj) < cfg.FrontalYaw {
				out = append(out, Event{Kind: kind, Start: sig[start].T, End: sig[j].T, From: start, To: j})
				frontal, i = j, j
				break
			} else if (yj < 0) != (y < 0) && abs(yj) > cfg.TurnAngle {
				// Swung through to the other side without pausing at
				// frontal: not a clean turn and back.
				frontal, i = -1, j
				break
			}
			i = j
		}
	}
	return out
}
