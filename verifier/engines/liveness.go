package engines

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/imgio"
)

// NewChallenge draws a liveness challenge with the engines' liveness
// configuration, and the frame budget the client must keep to. It needs
// no worker.
func (e *Engines) NewChallenge(rnd io.Reader, now time.Time) (liveness.Challenge, flow.FrameBudget, error) {
	ch, err := liveness.NewChallenge(rnd, now, e.cfg.Liveness)
	if err != nil {
		return liveness.Challenge{}, flow.FrameBudget{}, err
	}
	return ch, e.budget, nil
}

// Liveness analyses the frames on one worker, in order, and decides the
// challenge at server time now. The frames are the client's own stream,
// so one outside the budget (more than MaxFrames, a frame over
// MaxFrameBytes or the frame pixel bound, or not an image) is the client's
// mistake: the report carries that Problem and nothing is judged (the
// port's rule: bad images are not errors). A frame without a face is a
// judged signal, not a problem.
func (e *Engines) Liveness(ctx context.Context, ch liveness.Challenge, frames []liveness.Frame, now time.Time) (flow.LivenessReport, error) {
	if len(frames) > e.budget.MaxFrames {
		return flow.LivenessReport{Problems: []flow.Problem{flow.ProblemFramesCount}}, nil
	}
	for _, f := range frames {
		if len(f.Data) > e.budget.MaxFrameBytes {
			return flow.LivenessReport{Problems: []flow.Problem{flow.ProblemFrameTooLarge}}, nil
		}
	}
	var rep flow.LivenessReport
	err := e.run(ctx, func(w *worker) error {
		sig := make([]liveness.Signal, len(frames))
		for i, f := range frames {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("liveness: %w", err)
			}
			var err error
			sig[i], err = w.live.Frame(f)
			switch {
			case errors.Is(err, imgio.ErrTooLarge):
				rep.Problems = []flow.Problem{flow.ProblemFrameTooLarge}
				return nil
			case errors.Is(err, imgio.ErrFormat):
				rep.Problems = []flow.Problem{flow.ProblemFrameNotJPEG}
				return nil
			case err != nil:
				return fmt.Errorf("liveness: frame %d: %w", i, err)
			}
		}
		rep.Result = liveness.Decide(ch, sig, now, e.cfg.Liveness)
		if i := rep.Result.Selfie; i >= 0 {
			rep.Selfie, rep.SelfieDescriptor = frames[i].Data, sig[i].Descriptor
		}
		return nil
	})
	return rep, err
}
