package liveness

import (
	"encoding/json"
	"testing"
	"time"
)

// A challenge carries the thresholds of the config it was drawn with,
// under the API's JSON names (not Config's field names, which may change).
func TestChallengeGuide(t *testing.T) {
	cfg := Defaults
	cfg.TurnAngle, cfg.FrontalYaw, cfg.CloseRatio, cfg.OpenRatio, cfg.BlinkMaxYaw, cfg.MaxBaselineYaw = 17.5, 9, 0.55, 0.85, 24, 18
	cfg.StraightAheadSeed, cfg.MaxClosing, cfg.MaxReopening = 700*time.Millisecond, 220*time.Millisecond, 380*time.Millisecond
	ch, err := NewChallenge(nil, time.Now(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ch.Guide)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"turn_degrees":17.5,"frontal_degrees":9,"blink_close_ratio":0.55,"blink_open_ratio":0.85,"blink_max_yaw_degrees":24,"straight_ahead_max_degrees":18,"straight_ahead_seed_ms":700,"blink_max_closing_ms":220,"blink_max_reopening_ms":380}`
	if string(b) != want {
		t.Fatalf("guide %s, want %s", b, want)
	}
	if Defaults.Guide() == cfg.Guide() {
		t.Fatal("the guide does not follow the config")
	}
}
