package liveness

// Guide is what a challenge's client needs to show live progress against
// the same thresholds Decide judges with, so the page and the server
// cannot drift apart. The JSON names are the API's (the challenge
// answer's guide object) and stay stable when Config's fields change.
type Guide struct {
	// TurnDegrees: yaw past this from the person's own straight-ahead
	// counts as turned (Config.TurnAngle).
	TurnDegrees float64 `json:"turn_degrees"`
	// FrontalDegrees: yaw within this of straight-ahead counts as facing
	// the camera (Config.FrontalYaw).
	FrontalDegrees float64 `json:"frontal_degrees"`
	// BlinkCloseRatio: an eye aspect ratio below this share of the
	// person's open-eye baseline reads closed (Config.CloseRatio).
	BlinkCloseRatio float64 `json:"blink_close_ratio"`
	// BlinkOpenRatio: at or above this share it reads open again
	// (Config.OpenRatio).
	BlinkOpenRatio float64 `json:"blink_open_ratio"`
	// BlinkMaxYawDegrees: eyes are judged only this close to the person's
	// straight-ahead (Config.BlinkMaxYaw).
	BlinkMaxYawDegrees float64 `json:"blink_max_yaw_degrees"`
	// StraightAheadMaxDegrees: the person's straight-ahead, as each frame
	// is judged, is the median yaw of the face frames so far within this
	// of the camera (Config.MaxBaselineYaw under Config.StraightAheadSoFar,
	// the serving rule, which the page applies live; a config that takes
	// the whole stream or the first TurnBaseline instead is not served).
	StraightAheadMaxDegrees float64 `json:"straight_ahead_max_degrees"`
	// StraightAheadSeedMS: after this long from the first frame that
	// counted toward straight-ahead (the lead-in before the first cue), a
	// frame counts only while also within FrontalDegrees of the
	// straight-ahead so far, so a turn's frames on their way out and back
	// do not pull it (Config.StraightAheadSeed); 0: every frame within
	// StraightAheadMaxDegrees counts.
	StraightAheadSeedMS int64 `json:"straight_ahead_seed_ms"`
	// BlinkMaxClosingMS: a blink's first closed frame must come at most
	// this long after an open one (Config.MaxClosing); a frame that comes
	// later than this after the frame before it cannot begin a blink.
	BlinkMaxClosingMS int64 `json:"blink_max_closing_ms"`
	// BlinkMaxReopeningMS: the eyes must read open again at most this long
	// after their last closed frame (Config.MaxReopening).
	BlinkMaxReopeningMS int64 `json:"blink_max_reopening_ms"`
}

// Guide is the part of c a client shows progress against. Yaw is in the
// pose package's convention, measured from the person's own
// straight-ahead.
func (c Config) Guide() Guide {
	return Guide{
		TurnDegrees: c.TurnAngle, FrontalDegrees: c.FrontalYaw,
		BlinkCloseRatio: c.CloseRatio, BlinkOpenRatio: c.OpenRatio, BlinkMaxYawDegrees: c.BlinkMaxYaw,
		StraightAheadMaxDegrees: c.MaxBaselineYaw, StraightAheadSeedMS: c.StraightAheadSeed.Milliseconds(),
		BlinkMaxClosingMS: c.MaxClosing.Milliseconds(), BlinkMaxReopeningMS: c.MaxReopening.Milliseconds(),
	}
}
