// Package facemesh places MediaPipe's 468 face landmarks (Human's
// models/facemesh.json, 192×192 input) inside a detected face box, with the
// crop and coordinate mapping Human uses, so points match Human's.
package facemesh

import (
	"fmt"
	"math"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// ModelFile is the mesh's graph model within the models directory.
const ModelFile = "human/facemesh.json"

const (
	inputSize = 192
	// Points is the number of mesh landmarks.
	Points = 468
)

// Mesh is the landmark set of one face.
type Mesh struct {
	// Points are x, y in image pixels and z in the model's depth units
	// (relative; smaller is nearer the camera).
	Points [Points][3]float64
	// Score is the model's face-presence confidence (0..1).
	Score float32
	// Min, Max is the face box re-centred on the mesh, keeping the
	// detector box's size (Human's calculateFaceBox).
	Min, Max blazeface.Point
}

// Mesher runs the mesh model; it holds buffers, one per goroutine.
type Mesher struct {
	sess *tfjs.Session
	crop tensor.Tensor
}

// New prepares a mesher on a loaded facemesh model.
func New(m *tfjs.Model) *Mesher { return &Mesher{sess: m.NewSession()} }

// Run computes the mesh of the face in img (a [1, h, w, 3] RGB tensor,
// 0..255) inside the detector's square box.
func (m *Mesher) Run(img *tensor.Tensor, face blazeface.Face) (Mesh, error) {
	var out Mesh
	_, h, w, _, err := img.Dims4()
	if err != nil {
		return out, fmt.Errorf("facemesh: %w", err)
	}
	bw, bh := face.Max.X-face.Min.X, face.Max.Y-face.Min.Y
	if !(bw > 0 && bh > 0) {
		return out, fmt.Errorf("facemesh: empty face box %v-%v", face.Min, face.Max)
	}
	// Crop the box (it may extend past the image: outside is black) to
	// 192×192 and scale to 0..1.
	err = tensor.CropAndResize(&m.crop, img, face.Min.Y/float64(h), face.Min.X/float64(w),
		face.Max.Y/float64(h), face.Max.X/float64(w), inputSize, inputSize, 0)
	if err != nil {
		return out, fmt.Errorf("facemesh: %w", err)
	}
	for i, v := range m.crop.Data {
		m.crop.Data[i] = v / 255
	}
	if err := m.sess.Run(&m.crop); err != nil {
		return out, fmt.Errorf("facemesh: %w", err)
	}
	var mesh, flag *tensor.Tensor
	for _, name := range []string{"Identity_1", "Identity_2"} {
		t, err := m.sess.Output(name)
		if err != nil {
			return out, fmt.Errorf("facemesh: %w", err)
		}
		switch len(t.Data) {
		case 1:
			flag = t
		case 3 * Points:
			mesh = t
		}
	}
	if mesh == nil || flag == nil {
		return out, fmt.Errorf("facemesh: model lacks the mesh or face-flag output")
	}
	out.Score = flag.Data[0]
	// Map crop coordinates back: scale by box/192 around the crop centre,
	// then move to the box centre.
	cx, cy := (face.Min.X+face.Max.X)/2, (face.Min.Y+face.Max.Y)/2
	sx, sy := bw/inputSize, bh/inputSize
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := range Points {
		p := mesh.Data[3*i : 3*i+3]
		x := sx*(float64(p[0])-inputSize/2) + cx
		y := sy*(float64(p[1])-inputSize/2) + cy
		out.Points[i] = [3]float64{x, y, float64(p[2])}
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	mx, my := (minX+maxX)/2, (minY+maxY)/2
	out.Min = blazeface.Point{X: mx - bw/2, Y: my - bh/2}
	out.Max = blazeface.Point{X: mx + bw/2, Y: my + bh/2}
	return out, nil
}

// Crop is the model input of the last Run: the face box resized to
// 192×192 with values 0..1, which the passive anti-spoof models take.
// It is overwritten by the next Run.
func (m *Mesher) Crop() *tensor.Tensor { return &m.crop }
