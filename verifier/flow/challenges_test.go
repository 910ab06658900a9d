package flow_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/verifiertest/parts"
)

// Challenges on the real engines: each new one voids the last and comes
// in OrderedRand's step order with a usable budget; another link's is
// unknown here. Frames that pass the budget's byte and header checks but
// that the engines cannot use are the upload's problems and leave the
// challenge unused (Foreman's answer passes it after them); a challenge
// past its deadline is expired. (verifier/http tests the codes these
// errors answer and the per-link challenge rate.)
func TestChallengesOnTheEngines(t *testing.T) {
	r := newRig(t, parts.OpenSQLite(t))
	ctx := context.Background()
	_, tok := r.create(`{}`)
	_, otherTok := r.create(`{}`)
	foreign, err := r.flow.NewChallenge(ctx, otherTok)
	if err != nil {
		t.Fatal(err)
	}
	first, err := r.flow.NewChallenge(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.flow.NewChallenge(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, s := range second.Steps {
		steps = append(steps, string(s))
	}
	if first.ChallengeID == second.ChallengeID || strings.Join(steps, ",") != "blink,turn_left,turn_right" ||
		second.FrameBudget.MinFrames < 1 || second.FrameBudget.MaxFrames < second.FrameBudget.MinFrames || second.ExpiresIn <= 0 {
		t.Fatalf("challenges %+v %+v", first, second)
	}
	r.now = r.now.Add(5 * time.Second)
	frames := r.foreman()
	if _, err := r.flow.Liveness(ctx, tok, foreign.ChallengeID, frames); !errors.Is(err, flow.ErrChallengeUnknown) {
		t.Errorf("another link's challenge: %v, want unknown", err)
	}
	if _, err := r.flow.Liveness(ctx, tok, first.ChallengeID, frames); !errors.Is(err, flow.ErrChallengeVoided) {
		t.Errorf("the replaced challenge: %v, want voided", err)
	}
	var wide bytes.Buffer
	if err := jpeg.Encode(&wide, image.NewGray(image.Rect(0, 0, 1280, 720)), nil); err != nil {
		t.Fatal(err)
	}
	for want, frame := range map[flow.Problem][]byte{
		flow.ProblemFrameTooLarge: wide.Bytes(),
		flow.ProblemFrameNotJPEG:  append([]byte{0xff, 0xd8, 0xff, 0xe0}, make([]byte, 64)...),
	} {
		odd := slices.Clone(frames)
		odd[3] = liveness.Frame{Data: frame, T: frames[3].T}
		var pe *flow.ProblemsError
		if _, err := r.flow.Liveness(ctx, tok, second.ChallengeID, odd); !errors.As(err, &pe) ||
			pe.Step != flow.StepLiveness || !slices.Equal(pe.Problems, []flow.Problem{want}) {
			t.Errorf("a frame the engines cannot use: %v, want %s", err, want)
		}
	}
	if ans, err := r.flow.Liveness(ctx, tok, second.ChallengeID, frames); err != nil || !ans.Passed {
		t.Fatalf("Foreman's answer after the refused frames: %+v, %v", ans, err)
	}
	third, err := r.flow.NewChallenge(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	r.now = r.now.Add(3 * time.Minute)
	if _, err := r.flow.Liveness(ctx, tok, third.ChallengeID, frames); !errors.Is(err, flow.ErrChallengeExpired) {
		t.Errorf("after 3 minutes: %v, want expired", err)
	}
}

// With one attempt allowed, the answer leaves none; the same answer again
// is a retry (the same verdict, no attempt taken), other frames on the
// answered challenge are refused as used, and no challenge is issued any
// more.
func TestAttemptsRunOut(t *testing.T) {
	r := newRig(t, parts.OpenSQLite(t))
	ctx := context.Background()
	r.flow.Limits.LivenessAttempts = 1
	_, tok := r.create(`{}`)
	ch, err := r.flow.NewChallenge(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	r.now = r.now.Add(5 * time.Second)
	frames := r.foreman()
	ans, err := r.flow.Liveness(ctx, tok, ch.ChallengeID, frames)
	if err != nil || ans.AttemptsLeft != 0 {
		t.Fatalf("the one attempt: %+v, %v", ans, err)
	}
	again, err := r.flow.Liveness(ctx, tok, ch.ChallengeID, frames)
	if err != nil || again.Passed != ans.Passed || again.AttemptsLeft != 0 {
		t.Fatalf("retry %+v (%v), first %+v", again, err, ans)
	}
	if _, err := r.flow.Liveness(ctx, tok, ch.ChallengeID, frames[1:]); !errors.Is(err, flow.ErrChallengeUsed) {
		t.Errorf("other frames on the answered challenge: %v, want used", err)
	}
	if _, err := r.flow.NewChallenge(ctx, tok); !errors.Is(err, flow.ErrNoAttemptsLeft) {
		t.Errorf("a challenge after the last attempt: %v, want none left", err)
	}
}
