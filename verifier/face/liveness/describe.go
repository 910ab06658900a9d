package liveness

import (
	"fmt"
	"math"

	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/facerec"
	"github.com/idgate/idgate/verifier/face/tensor"
)

// MeshBoxDescriber describes the face with face-api's recognition net on
// the square around the mesh's points, resized to the net's input. It is
// the continuity describer until the face pipeline's landmark-aligned
// crop is available: within one stream it separates the subject from
// other people (see Defaults.SameDistance), but it is not the crop the
// net was trained on, so do not compare its descriptors with the license
// photo's. Not safe for concurrent use.
func MeshBoxDescriber(net *facerec.Net) Describer {
	emb := net.NewEmbedder()
	var crop tensor.Tensor
	return func(img *tensor.Tensor, m *facemesh.Mesh) ([]float32, error) {
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range m.Points {
			minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
			minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
		}
		cx, cy, half := (minX+maxX)/2, (minY+maxY)/2, math.Max(maxX-minX, maxY-minY)/2
		h, w := float64(img.Shape[1]), float64(img.Shape[2])
		err := tensor.CropAndResize(&crop, img, (cy-half)/h, (cx-half)/w, (cy+half)/h, (cx+half)/w,
			facerec.InputSize, facerec.InputSize, 0)
		if err != nil {
			return nil, fmt.Errorf("describe face: %w", err)
		}
		d, err := emb.Descriptor(&crop)
		if err != nil {
			return nil, err
		}
		return d[:], nil
	}
}
