// Package spoof runs Human's two passive presentation-attack models on a
// face crop: antispoof (real vs printed/replayed face, 128×128 input) and
// liveness (live vs not, 32×32 input). Their scores are supplementary
// signals; active liveness (challenges) decides webcam_appears_live.
package spoof

import (
	"fmt"

	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// Model files within the models directory.
const (
	AntispoofFile = "human/antispoof.json"
	LivenessFile  = "human/liveness.json"
)

// Scorer runs one of the two models; it holds buffers, one per goroutine.
type Scorer struct {
	sess *tfjs.Session
	size int
	in   tensor.Tensor
}

// NewAntispoof scores how likely a face is real rather than a spoof (0..1).
func NewAntispoof(m *tfjs.Model) *Scorer { return &Scorer{sess: m.NewSession(), size: 128} }

// NewLiveness scores how likely a face is live (0..1).
func NewLiveness(m *tfjs.Model) *Scorer { return &Scorer{sess: m.NewSession(), size: 32} }

// Score runs the model on crop: the facemesh crop of the detector's face
// box (192×192, values 0..1), resized with TF's legacy bilinear as Human
// does. It returns the model's first output value.
func (s *Scorer) Score(crop *tensor.Tensor) (float32, error) {
	if err := tensor.ResizeBilinear(&s.in, crop, s.size, s.size); err != nil {
		return 0, fmt.Errorf("spoof score: %w", err)
	}
	if err := s.sess.Run(&s.in); err != nil {
		return 0, fmt.Errorf("spoof score: %w", err)
	}
	out, err := s.sess.Output("Identity")
	if err != nil || len(out.Data) == 0 {
		return 0, fmt.Errorf("spoof score: no output: %v", err)
	}
	return out.Data[0], nil
}
