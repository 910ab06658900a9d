package main

import (
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// judged is one sequence's verdict under each configuration.
type judged struct {
	seq     sequence
	results []liveness.Result // one per configuration, in order
}

// analyse computes every distinct frame's signal once (the analyser's
// own settings are the same in both configurations: only Decide
// differs).
func analyse(an *liveness.Analyzer, src *source, seqs []sequence) (map[string]liveness.Signal, error) {
	sigs := map[string]liveness.Signal{}
	for _, s := range seqs {
		for _, f := range s.frames {
			k := f.key()
			if _, ok := sigs[k]; ok {
				continue
			}
			data, err := src.bytes(f)
			if err != nil {
				return nil, err
			}
			sig, err := an.Frame(liveness.Frame{Data: data})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
			sigs[k] = sig
		}
	}
	return sigs, nil
}

// judge decides every sequence under each configuration, on its signals.
func judge(seqs []sequence, cols []column) []judged {
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	var out []judged
	for _, s := range seqs {
		j := judged{seq: s}
		for _, c := range cols {
			sig := s.signals(c.sigs)
			ch := liveness.Challenge{Nonce: "eval", Steps: s.steps, IssuedAt: now.Add(-sig[len(sig)-1].T - time.Second),
				ExpiresAt: now.Add(time.Minute), StepTimeoutMS: c.cfg.StepTimeout.Milliseconds()}
			j.results = append(j.results, liveness.Decide(ch, sig, now, c.cfg))
		}
		out = append(out, j)
	}
	return out
}

// signals are the sequence's frames' signals from sigs, each at its
// capture time.
func (s sequence) signals(sigs map[string]liveness.Signal) []liveness.Signal {
	sig := make([]liveness.Signal, len(s.frames))
	for i, f := range s.frames {
		sig[i] = sigs[f.key()]
		sig[i].T = s.at(i)
	}
	return sig
}

// at is frame i's capture time: as captured for a real clip, at the
// sequence's frame rate otherwise (and past the last frame, at that
// rate on from it).
func (s sequence) at(i int) time.Duration {
	if n := len(s.times); n > 0 {
		if i < n {
			return s.times[i]
		}
		return s.times[n-1] + time.Duration(float64(i-n+1)/s.fps*float64(time.Second))
	}
	return time.Duration(float64(i) / s.fps * float64(time.Second))
}

// inPlace reports whether live step k was completed where it was
// labelled: from the labelled gesture's first frame to two frames after
// its last (a turn ends when the face is back, which may be the next
// segment's first frame).
func (s sequence) inPlace(k int, r liveness.StepResult) bool {
	if k >= len(s.labels) || !r.Passed {
		return false
	}
	at := time.Duration(r.AtMS) * time.Millisecond
	return at >= s.at(s.labels[k][0]) && at <= s.at(s.labels[k][1]+2)
}
