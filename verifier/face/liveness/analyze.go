package liveness

import (
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/pose"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// NewAnalyzer loads the detector, mesh and iris models through read (a
// verified model set's ReadFile).
func NewAnalyzer(read tfjs.ReadFunc, describe Describer, cfg Config) (*Analyzer, error) {
	var m [3]*tfjs.Model
	for i, name := range []string{blazeface.ModelFile, facemesh.ModelFile, pose.IrisModelFile} {
		var err error
		if m[i], err = tfjs.Load(read, name); err != nil {
			return nil, fmt.Errorf("liveness analyzer: %w", err)
		}
	}
	return &Analyzer{
		Detector: NewDetector(m[0]),
		Mesher:   facemesh.New(m[1]),
		Eyelids:  pose.NewEyelids(m[2]),
		Describe: describe,
		Cfg:      cfg,
	}, nil
}

// NewDetector is the analyzer's face detector on BlazeFace model m (the
// engine's blazeface.ModelFile; bench/liveness swaps in the short-range
// 128 to weigh it): up to 3 candidates, enough to see a second face,
// while each false detection still costs a mesh run.
func NewDetector(m *tfjs.Model) *blazeface.Detector {
	opt := blazeface.Defaults
	opt.MaxFaces = 3
	return blazeface.New(m, opt)
}

// Run analyses every frame, in order, then decides the challenge at
// server time now. A frame that cannot be decoded fails the whole run:
// the stream is the client's, a broken frame is not a missing face.
func (a *Analyzer) Run(ch Challenge, frames []Frame, now time.Time) (Result, error) {
	sig := make([]Signal, 0, len(frames))
	for _, f := range frames {
		s, err := a.Frame(f)
		if err != nil {
			return Result{}, err
		}
		sig = append(sig, s)
	}
	return Decide(ch, sig, now, a.Cfg), nil
}
