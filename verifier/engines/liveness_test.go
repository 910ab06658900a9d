package engines_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// foreman is the real video the liveness tests answer challenges with:
// frames from..to, every 2nd, re-timed as a 15 fps stream. Frames 36–96
// face the camera, blink (66–68), turn to his left (69–82), then to his
// right (83–94).
func foreman(t testing.TB, from, to int) []liveness.Frame {
	t.Helper()
	var out []liveness.Frame
	for n := from; n <= to; n += 2 {
		data, err := os.ReadFile(testkit.Data(t, "testdata", "liveness", "foreman", fmt.Sprintf("f%03d.jpg", n)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, liveness.Frame{Data: data, T: time.Duration(len(out)) * time.Second / 15})
	}
	return out
}

// challengeOf is a challenge the engines drew, issued 30 s before now,
// with its steps set to steps (the draw is random).
func challengeOf(t testing.TB, e *engines.Engines, now time.Time, steps ...liveness.Step) liveness.Challenge {
	t.Helper()
	ch, _, err := e.NewChallenge(nil, now.Add(-30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ch.Steps = steps
	return ch
}

var now = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// foremanAnswer is foreman's frames 36–96 and the engines' report on them
// answering a challenge to blink, turn left and turn right, judged once
// per test binary: TestLivenessPasses checks the report, TestCompare
// compares its selfie, and judging the same frames again for it took
// 1.2 s of CPU. Only the challenge's random nonce would differ.
func foremanAnswer(t testing.TB, e *engines.Engines) ([]liveness.Frame, flow.LivenessReport) {
	t.Helper()
	foremanLive.once.Do(func() {
		foremanLive.frames = foreman(t, 36, 96)
		ch := challengeOf(t, e, now, liveness.Blink, liveness.TurnLeft, liveness.TurnRight)
		foremanLive.rep, foremanLive.err = e.Liveness(context.Background(), ch, foremanLive.frames, now)
		foremanLive.done = true
	})
	if !foremanLive.done || foremanLive.err != nil {
		t.Fatalf("foreman's answer not judged: %v", foremanLive.err)
	}
	return foremanLive.frames, foremanLive.rep
}

var foremanLive struct {
	once   sync.Once
	done   bool
	frames []liveness.Frame
	rep    flow.LivenessReport
	err    error
}

func TestNewChallengeAndBudget(t *testing.T) {
	e := loaded(t)
	seen := map[string]bool{}
	for i := range 20 {
		ch, budget, err := e.NewChallenge(nil, now)
		if err != nil {
			t.Fatal(err)
		}
		if len(ch.Steps) != liveness.Defaults.Steps || seen[ch.Nonce] || !ch.ExpiresAt.Equal(now.Add(liveness.Defaults.TTL)) {
			t.Fatalf("challenge %d: %+v", i, ch)
		}
		seen[ch.Nonce] = true
		if ch.Guide != liveness.Defaults.Guide() {
			t.Fatalf("guide %+v, want the serving config's %+v", ch.Guide, liveness.Defaults.Guide())
		}
		if budget.MinFrames != liveness.Defaults.MinFrames || budget.MaxFrames != engines.DefaultMaxFrames || budget.FPS != engines.DefaultFPS ||
			budget.MaxWidth != engines.DefaultFrameSide || budget.MaxHeight != engines.DefaultFrameSide || budget.MaxFrameBytes < 100<<10 {
			t.Fatalf("budget %+v", budget)
		}
	}
	// The seeded draw is the same challenge every time (tests inject it).
	a, _, _ := e.NewChallenge(bytes.NewReader(bytes.Repeat([]byte{7, 1, 200, 3}, 64)), now)
	b, _, _ := e.NewChallenge(bytes.NewReader(bytes.Repeat([]byte{7, 1, 200, 3}, 64)), now)
	if a.Nonce != b.Nonce || !slices.Equal(a.Steps, b.Steps) {
		t.Fatalf("seeded draws differ: %+v %+v", a, b)
	}
}

// A challenge answered by real video passes, and the selfie is one of the
// frames as sent, with its descriptor.
func TestLivenessPasses(t *testing.T) {
	frames, rep := foremanAnswer(t, loaded(t))
	if !rep.Result.Live || len(rep.Result.Failures) != 0 {
		t.Fatalf("not live: %+v", rep.Result)
	}
	if i := rep.Result.Selfie; i < 0 || !bytes.Equal(rep.Selfie, frames[i].Data) || len(rep.SelfieDescriptor) != 128 {
		t.Fatalf("selfie %d: %d bytes, descriptor of %d", i, len(rep.Selfie), len(rep.SelfieDescriptor))
	}
}

// The same video does not answer a challenge asking the turns the other
// way round, nor an expired one.
func TestLivenessRefuses(t *testing.T) {
	e := loaded(t)
	frames := foreman(t, 36, 96)
	rep, err := e.Liveness(context.Background(), challengeOf(t, e, now, liveness.Blink, liveness.TurnRight, liveness.TurnLeft), frames, now)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result.Live || !slices.Contains(rep.Result.Failures, liveness.StepsNotCompleted) {
		t.Fatalf("wrong order judged %+v", rep.Result)
	}
	ch := challengeOf(t, e, now, liveness.Blink, liveness.TurnLeft, liveness.TurnRight)
	rep, err = e.Liveness(context.Background(), ch, frames, ch.ExpiresAt.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result.Live || !slices.Contains(rep.Result.Failures, liveness.ChallengeExpired) {
		t.Fatalf("expired challenge judged %+v", rep.Result)
	}
}

// Frames outside the budget come back as the flow's problems, unjudged.
func TestLivenessBudget(t *testing.T) {
	e := loaded(t)
	ch := challengeOf(t, e, now, liveness.Blink, liveness.TurnLeft, liveness.TurnRight)
	frames := foreman(t, 36, 56)
	_, budget, _ := e.NewChallenge(nil, now)
	for name, c := range map[string]struct {
		edit func([]liveness.Frame) []liveness.Frame
		want flow.Problem
	}{
		"too many frames": {func(f []liveness.Frame) []liveness.Frame {
			for len(f) <= budget.MaxFrames {
				f = append(f, f[0])
			}
			return f
		}, flow.ProblemFramesCount},
		"frame too big": {func(f []liveness.Frame) []liveness.Frame {
			f[3].Data = append(bytes.Clone(f[3].Data), make([]byte, budget.MaxFrameBytes)...)
			return f
		}, flow.ProblemFrameTooLarge},
		"too many pixels": {func(f []liveness.Frame) []liveness.Frame {
			f[2].Data = pngHeader(uint32(budget.MaxWidth+1), uint32(budget.MaxHeight))
			return f
		}, flow.ProblemFrameTooLarge},
		"not an image": {func(f []liveness.Frame) []liveness.Frame {
			f[5].Data = []byte("not a frame")
			return f
		}, flow.ProblemFrameNotJPEG},
	} {
		rep, err := e.Liveness(context.Background(), ch, c.edit(slices.Clone(frames)), now)
		if err != nil || !slices.Equal(rep.Problems, []flow.Problem{c.want}) || rep.Result.Frames != 0 || rep.Selfie != nil {
			t.Errorf("%s: got %v, %+v, want only the problem %s", name, err, rep, c.want)
		}
	}
}

// Compare tiers the license portrait against selfies: another photo of
// the same person matches, a different person does not.
func TestCompare(t *testing.T) {
	e := loaded(t)
	portrait := func(person string) []float32 {
		rep, err := e.Front(context.Background(), frontPhoto(t, cardtest.Scene{Face: labeledFace(t, person), RotationDeg: 5, Seed: 11}))
		if err != nil || len(rep.Problems) != 0 {
			t.Fatalf("%s: %v %v", person, err, rep.Problems)
		}
		return rep.Portrait
	}
	sheldon1, sheldon2, raj := portrait("sheldon/sheldon1.png"), portrait("sheldon/sheldon2.png"), portrait("raj/raj1.png")
	same, err := e.Compare(sheldon1, sheldon2)
	if err != nil {
		t.Fatal(err)
	}
	if same.Tier != match.DefiniteMatch && same.Tier != match.LikelyMatch {
		t.Errorf("same person: %+v", same)
	}
	other, err := e.Compare(sheldon1, raj)
	if err != nil {
		t.Fatal(err)
	}
	if other.Tier != match.NoMatch || other.Distance <= same.Distance {
		t.Errorf("different people: %+v (same: %+v)", other, same)
	}
	_, live := foremanAnswer(t, e)
	if r, err := e.Compare(sheldon2, live.SelfieDescriptor); err != nil || r.Tier != match.NoMatch {
		t.Errorf("license portrait against another person's selfie: %+v %v", r, err)
	}
	if _, err := e.Compare(sheldon1, nil); err == nil || !strings.Contains(err.Error(), "compare") {
		t.Errorf("no selfie descriptor: %v", err)
	}
}
