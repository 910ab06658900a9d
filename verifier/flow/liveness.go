package flow

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image/jpeg"
	"time"

	"github.com/idgate/idgate/verifier"
	"github.com/idgate/idgate/verifier/face/liveness"
)

// ChallengeAnswer is a new liveness challenge as the client sees it.
type ChallengeAnswer struct {
	ChallengeID string          `json:"challenge_id"`
	Steps       []liveness.Step `json:"steps"`
	FrameBudget BudgetAnswer    `json:"frame_budget"`
	// ExpiresIn is how many seconds the challenge may be answered.
	ExpiresIn     int   `json:"expires_in"`
	StepTimeoutMS int64 `json:"step_timeout_ms"`
	AttemptsLeft  int   `json:"attempts_left"`
	// Guide is the thresholds the server judges the steps with, so the
	// page's live progress shows the same "done" the server will see.
	Guide liveness.Guide `json:"guide"`
}

// BudgetAnswer is FrameBudget as the client sees it: how many frames, of
// what size at most (a frame may be turned: its pixels must fit within
// max_width × max_height), captured at about fps.
type BudgetAnswer struct {
	MinFrames     int `json:"min_frames"`
	MaxFrames     int `json:"max_frames"`
	MaxFrameBytes int `json:"max_frame_bytes"`
	MaxWidth      int `json:"max_width"`
	MaxHeight     int `json:"max_height"`
	FPS           int `json:"fps"`
}

// LivenessAnswer is the verdict on a challenge's frames.
type LivenessAnswer struct {
	Passed       bool                  `json:"passed"`
	Steps        []liveness.StepResult `json:"steps"`
	Failures     []liveness.Reason     `json:"failures"`
	AttemptsLeft int                   `json:"attempts_left"`
}

// NewChallenge issues a single-use liveness challenge for the link, in a
// fresh random step order; it voids the previous one. A link that has
// used its judged attempts is completed (completeExhausted, normally done
// already by the last attempt) and gets a *LinkEndedError, as any ended
// link does; ErrNoAttemptsLeft only if it cannot be.
func (f *Flow) NewChallenge(ctx context.Context, token string) (ChallengeAnswer, error) {
	v, err := f.link(ctx, token)
	if err != nil {
		return ChallengeAnswer{}, err
	}
	now := f.now()
	ch, budget, err := f.Engines.NewChallenge(f.Rand, now)
	if err != nil {
		return ChallengeAnswer{}, fmt.Errorf("new challenge: %w", err)
	}
	s, err := f.update(ctx, v, func(s *Session) error {
		if s.Phase != PhaseCollecting {
			return fmt.Errorf("new challenge: %w: the steps were submitted", ErrOutOfOrder)
		}
		if f.attemptsLeft(s) == 0 {
			return ErrNoAttemptsLeft
		}
		s.issue(IssuedChallenge{Challenge: ch, Budget: budget})
		return nil
	})
	if errors.Is(err, ErrNoAttemptsLeft) {
		if cur, lerr := f.load(ctx, v); lerr == nil && f.exhausted(&cur) {
			if done, cerr := f.completeExhausted(ctx, v, cur); cerr == nil {
				return ChallengeAnswer{}, &LinkEndedError{Status: verifier.Status(done.Status)}
			}
		}
	}
	if err != nil {
		return ChallengeAnswer{}, err
	}
	if err := f.markStarted(ctx, v); err != nil {
		return ChallengeAnswer{}, err
	}
	return ChallengeAnswer{
		ChallengeID: ch.Nonce, Steps: ch.Steps,
		FrameBudget: BudgetAnswer{MinFrames: budget.MinFrames, MaxFrames: budget.MaxFrames, MaxFrameBytes: budget.MaxFrameBytes,
			MaxWidth: budget.MaxWidth, MaxHeight: budget.MaxHeight, FPS: budget.FPS},
		ExpiresIn:     int(ch.ExpiresAt.Sub(now).Round(time.Second) / time.Second),
		StepTimeoutMS: ch.StepTimeoutMS,
		AttemptsLeft:  f.attemptsLeft(&s),
		Guide:         ch.Guide,
	}, nil
}

func (f *Flow) attemptsLeft(s *Session) int {
	return max(0, f.Limits.LivenessAttempts-s.LivenessAttempts)
}

// Liveness judges the frames captured for the challenge id, and only that
// challenge: one never issued on this link, replaced by a newer one,
// already answered or expired is refused. Frames outside the challenge's
// budget are a *ProblemsError and leave the challenge unused. A judged
// challenge is used up and counts an attempt, passed or not; a pass keeps
// the selfie, sealed, for manual review, and a failure clears an earlier
// pass (the latest judgement counts). A failure on the last attempt
// completes the verification at once (completeExhausted): the answer says
// attempts_left 0 and the link has ended.
func (f *Flow) Liveness(ctx context.Context, token, challengeID string, frames []liveness.Frame) (LivenessAnswer, error) {
	v, err := f.link(ctx, token)
	if err != nil {
		return LivenessAnswer{}, err
	}
	s, err := f.load(ctx, v)
	if err != nil {
		return LivenessAnswer{}, err
	}
	digest := FramesDigest(challengeID, frames)
	var out LivenessAnswer
	if r, ok := s.replay(StepLiveness, digest); ok {
		if err := r.answer(StepLiveness, &out); err != nil {
			return LivenessAnswer{}, err
		}
		// The first request judged the last attempt but its completion
		// failed: finish it now.
		if f.exhausted(&s) {
			if _, err := f.completeExhausted(ctx, v, s); err != nil {
				return LivenessAnswer{}, err
			}
		}
		return out, nil
	}
	if s.Phase != PhaseCollecting {
		return LivenessAnswer{}, fmt.Errorf("liveness: %w: the steps were submitted", ErrOutOfOrder)
	}
	now := f.now()
	ch, err := s.answerable(challengeID, now)
	if err != nil {
		return LivenessAnswer{}, err
	}
	if problems := framesProblems(frames, ch.Budget); problems != nil {
		return LivenessAnswer{}, &ProblemsError{Step: StepLiveness, Problems: problems}
	}
	rep, err := f.Engines.Liveness(ctx, ch.Challenge, frames, now)
	if err != nil {
		return LivenessAnswer{}, fmt.Errorf("liveness: %w", err)
	}
	// A frame the engines could not read (over the pixel bound, not an
	// image) is the client's fault like one over the byte budget: the
	// challenge stays unused.
	if rep.Problems != nil {
		return LivenessAnswer{}, &ProblemsError{Step: StepLiveness, Problems: rep.Problems}
	}
	passed := rep.Result.Live && rep.SelfieDescriptor != nil && rep.Selfie != nil
	if passed {
		if err := f.keepForReview(ctx, v, ReviewSelfie, rep.Selfie); err != nil {
			return LivenessAnswer{}, err
		}
	}
	s, err = f.update(ctx, v, func(cur *Session) error {
		if cur.Phase != PhaseCollecting {
			return fmt.Errorf("liveness: %w: the steps were submitted meanwhile", ErrOutOfOrder)
		}
		// Judged against the challenge as loaded; it must still be the
		// unanswered current one, or another request answered it first.
		if _, err := cur.answerable(challengeID, now); err != nil {
			return err
		}
		cur.Challenge.Answered = true
		cur.LivenessAttempts++
		cur.Live = nil
		if passed {
			cur.Live = &LiveDone{Selfie: rep.SelfieDescriptor}
		}
		out = LivenessAnswer{Passed: passed, Steps: rep.Result.Steps, Failures: rep.Result.Failures, AttemptsLeft: f.attemptsLeft(cur)}
		if out.Failures == nil {
			out.Failures = []liveness.Reason{}
		}
		answer, err := json.Marshal(out)
		if err != nil {
			return err
		}
		cur.remember(StepLiveness, Reply{Digest: digest, Answer: answer})
		return nil
	})
	if err != nil {
		return LivenessAnswer{}, err
	}
	if passed {
		if err := f.markStarted(ctx, v); err != nil {
			return LivenessAnswer{}, err
		}
	}
	if f.exhausted(&s) {
		if _, err := f.completeExhausted(ctx, v, s); err != nil {
			return LivenessAnswer{}, err
		}
	}
	return out, nil
}

// FramesDigest identifies a liveness request: the challenge, and every
// frame's time and bytes (also the key of enginestest.Memo's answers).
func FramesDigest(challengeID string, frames []liveness.Frame) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(challengeID))
	var n [8]byte
	for _, fr := range frames {
		binary.BigEndian.PutUint64(n[:], uint64(fr.T))
		h.Write(n[:])
		binary.BigEndian.PutUint64(n[:], uint64(len(fr.Data)))
		h.Write(n[:])
		h.Write(fr.Data)
	}
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// framesProblems checks the frames against the budget the challenge was
// issued with, before any is decoded: count, bytes, JPEG, the pixels each
// header declares (within MaxWidth × MaxHeight, so portrait and landscape
// frames both fit) and increasing capture times.
func framesProblems(frames []liveness.Frame, b FrameBudget) []Problem {
	var out []Problem
	if len(frames) < b.MinFrames || (b.MaxFrames > 0 && len(frames) > b.MaxFrames) {
		out = append(out, ProblemFramesCount)
	}
	large, notJPEG, badTime := false, false, false
	for i, fr := range frames {
		large = large || (b.MaxFrameBytes > 0 && len(fr.Data) > b.MaxFrameBytes)
		if !sniffJPEG(fr.Data) {
			notJPEG = true
		} else if b.MaxWidth > 0 && b.MaxHeight > 0 {
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(fr.Data))
			notJPEG = notJPEG || err != nil
			large = large || (err == nil && cfg.Width*cfg.Height > b.MaxWidth*b.MaxHeight)
		}
		badTime = badTime || fr.T < 0 || (i > 0 && fr.T <= frames[i-1].T)
	}
	for _, p := range []struct {
		bad bool
		p   Problem
	}{{large, ProblemFrameTooLarge}, {notJPEG, ProblemFrameNotJPEG}, {badTime, ProblemTimestampsInvalid}} {
		if p.bad {
			out = append(out, p.p)
		}
	}
	return out
}
