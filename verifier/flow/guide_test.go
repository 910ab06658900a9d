package flow_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// tunedEngines are the real engines drawing challenges with another
// liveness config, as a deployment that tuned it would.
type tunedEngines struct {
	flow.Engines
	cfg liveness.Config
}

func (e tunedEngines) NewChallenge(rnd io.Reader, now time.Time) (liveness.Challenge, flow.FrameBudget, error) {
	_, budget, err := e.Engines.NewChallenge(rnd, now)
	if err != nil {
		return liveness.Challenge{}, flow.FrameBudget{}, err
	}
	ch, err := liveness.NewChallenge(rnd, now, e.cfg)
	return ch, budget, err
}

// The challenge answer's guide is the thresholds of the config the
// challenge is judged with: the serving Defaults, and a tuned config's
// own values when the engines run one.
func TestChallengeAnswerCarriesGuide(t *testing.T) {
	r := newRig(t, parts.OpenSQLite(t))
	_, tok, _ := r.licensed()
	ch, err := r.flow.NewChallenge(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	want := liveness.Guide{TurnDegrees: liveness.Defaults.TurnAngle, FrontalDegrees: liveness.Defaults.FrontalYaw,
		BlinkCloseRatio: liveness.Defaults.CloseRatio, BlinkOpenRatio: liveness.Defaults.OpenRatio,
		BlinkMaxYawDegrees: liveness.Defaults.BlinkMaxYaw, StraightAheadMaxDegrees: liveness.Defaults.MaxBaselineYaw,
		StraightAheadSeedMS: liveness.Defaults.StraightAheadSeed.Milliseconds(),
		BlinkMaxClosingMS:   liveness.Defaults.MaxClosing.Milliseconds(), BlinkMaxReopeningMS: liveness.Defaults.MaxReopening.Milliseconds()}
	if ch.Guide != want {
		t.Fatalf("guide %+v, want the serving config's %+v", ch.Guide, want)
	}

	tuned := liveness.Defaults
	tuned.TurnAngle, tuned.FrontalYaw, tuned.CloseRatio, tuned.OpenRatio, tuned.BlinkMaxYaw, tuned.MaxBaselineYaw = 16, 8, 0.5, 0.75, 25, 18
	tuned.StraightAheadSeed, tuned.MaxClosing, tuned.MaxReopening = 300*time.Millisecond, 200*time.Millisecond, 350*time.Millisecond
	r.flow.Engines = tunedEngines{Engines: r.flow.Engines, cfg: tuned}
	ch, err = r.flow.NewChallenge(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	if want := (liveness.Guide{TurnDegrees: 16, FrontalDegrees: 8, BlinkCloseRatio: 0.5, BlinkOpenRatio: 0.75,
		BlinkMaxYawDegrees: 25, StraightAheadMaxDegrees: 18, StraightAheadSeedMS: 300,
		BlinkMaxClosingMS: 200, BlinkMaxReopeningMS: 350}); ch.Guide != want {
		t.Fatalf("tuned guide %+v, want %+v", ch.Guide, want)
	}
}
