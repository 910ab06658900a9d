package liveness

import (
	"fmt"
	"math"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/tensor"
)

// EngineDescriber describes the face with the face engine's own
// eye-aligned descriptor, so the selfie's descriptor is the one the
// license match uses. The engine exposes no describe-this-mesh call yet,
// so it analyses the frame again and takes the face whose mesh lies
// nearest m (twice the detection work on described frames).
func EngineDescriber(a *face.Analyzer) Describer {
	return func(img *tensor.Tensor, m *facemesh.Mesh) ([]float32, error) {
		faces, err := a.Analyze(img)
		if err != nil {
			return nil, fmt.Errorf("describe face: %w", err)
		}
		best, bestD := -1, math.Inf(1)
		for i, f := range faces {
			if d := math.Hypot(f.Mesh[1][0]-m.Points[1][0], f.Mesh[1][1]-m.Points[1][1]); d < bestD {
				best, bestD = i, d
			}
		}
		if best < 0 {
			return nil, fmt.Errorf("describe face: %w", face.ErrNoFace)
		}
		d := faces[best].Descriptor
		return d[:], nil
	}
}
