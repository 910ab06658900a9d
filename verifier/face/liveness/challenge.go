package liveness

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"
)

// Step is one thing the user is asked to do.
type Step string

// Steps. Left and right are the user's own: turn_left means the nose moves
// towards the image's right in an unmirrored camera frame (yaw > 0).
const (
	Blink     Step = "blink"
	TurnLeft  Step = "turn_left"
	TurnRight Step = "turn_right"
)

var allSteps = []Step{Blink, TurnLeft, TurnRight}

// ErrSpec: a challenge step list that cannot be parsed.
var ErrSpec = errors.New("invalid challenge steps")

// Challenge is what the server issues and later judges against.
type Challenge struct {
	Nonce     string    `json:"nonce"`
	Steps     []Step    `json:"steps"`
	IssuedAt  time.Time `json:"issued_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// StepTimeoutMS is each step's deadline, in ms after it is asked.
	StepTimeoutMS int64 `json:"step_timeout_ms"`
	// Guide is the thresholds the challenge is judged with, for the
	// client's live progress.
	Guide Guide `json:"guide"`
}

// NewChallenge draws cfg.Steps steps from rnd (crypto/rand when nil): no
// step twice in a row, and at least one blink and one turn, so a single
// recorded gesture never answers it. The nonce is 128 random bits.
func NewChallenge(rnd io.Reader, now time.Time, cfg Config) (Challenge, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	if cfg.Steps < 3 {
		return Challenge{}, fmt.Errorf("new challenge: %d steps, want at least 3", cfg.Steps)
	}
	nonce := make([]byte, 16)
	if _, err := io.ReadFull(rnd, nonce); err != nil {
		return Challenge{}, fmt.Errorf("new challenge: nonce: %w", err)
	}
	for {
		steps := make([]Step, 0, cfg.Steps)
		for len(steps) < cfg.Steps {
			n, err := rand.Int(rnd, big.NewInt(int64(len(allSteps))))
			if err != nil {
				return Challenge{}, fmt.Errorf("new challenge: steps: %w", err)
			}
			s := allSteps[n.Int64()]
			if len(steps) > 0 && steps[len(steps)-1] == s {
				continue
			}
			steps = append(steps, s)
		}
		if validMix(steps) {
			return Challenge{
				Nonce: base64.RawURLEncoding.EncodeToString(nonce), Steps: steps,
				IssuedAt: now, ExpiresAt: now.Add(cfg.TTL), StepTimeoutMS: cfg.StepTimeout.Milliseconds(),
				Guide: cfg.Guide(),
			}, nil
		}
	}
}

func validMix(steps []Step) bool {
	blink, turn := false, false
	for _, s := range steps {
		blink = blink || s == Blink
		turn = turn || s != Blink
	}
	return blink && turn
}

// ParseSteps reads a comma-separated step list ("blink,turn_left,...").
func ParseSteps(spec string) ([]Step, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, fmt.Errorf("parse steps: %w: empty", ErrSpec)
	}
	parts := strings.Split(spec, ",")
	if len(parts) > 16 {
		return nil, fmt.Errorf("parse steps: %w: %d steps, at most 16", ErrSpec, len(parts))
	}
	steps := make([]Step, 0, len(parts))
	for _, p := range parts {
		s := Step(strings.TrimSpace(p))
		switch s {
		case Blink, TurnLeft, TurnRight:
			steps = append(steps, s)
		default:
			return nil, fmt.Errorf("parse steps: %w: unknown step %q", ErrSpec, s)
		}
	}
	return steps, nil
}
