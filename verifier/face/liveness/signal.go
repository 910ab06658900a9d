package liveness

import (
	"fmt"
	"time"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/pose"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

// Frame is one client frame: JPEG/PNG/WebP bytes and the client's capture
// time since the stream started.
type Frame struct {
	Data []byte
	T    time.Duration
}

// Signal is what Decide needs of one frame.
type Signal struct {
	T time.Duration
	// Faces counts the people in view: the subject and every other face
	// that counts beside it (face.Subject), among those the mesh model
	// confirmed; 0 when none.
	Faces int
	// The rest describe the subject when Faces ≥ 1.
	Pose pose.Pose
	Eyes pose.Eyes
	// Centre (x, y) and Size (the longer side of the mesh's extent) of
	// the face in pixels, for tracking it from frame to frame.
	Centre [2]float64
	Size   float64
	// Descriptor of the face, when the describer ran on this frame.
	Descriptor []float32
	// Sharpness of the inner face (faceSharpness), on the frames that
	// have a descriptor: the selfie is taken from the sharper ones.
	Sharpness float64
}

// Describer returns a face descriptor (e.g. face-api's 128-D) for the face
// with mesh m in img, as the mesh model gave it (before the eyelid
// refinement). It is injected so the face pipeline can supply its
// aligned crop and recognition net.
type Describer func(img *tensor.Tensor, m *facemesh.Mesh) ([]float32, error)

// Analyzer turns frames into signals. It holds model buffers: one per
// goroutine.
type Analyzer struct {
	Detector *blazeface.Detector
	Mesher   *facemesh.Mesher
	Eyelids  *pose.Eyelids
	// Describe is required in production: without descriptors there is
	// no selfie and no continuity, and Decide fails the stream with
	// no_frontal_frame.
	Describe Describer
	Cfg      Config
}

// Frame analyses one frame. The descriptor is computed on every frame
// whose face is within SelfieMaxYaw of frontal: sampling fewer frames
// would leave gaps a spliced-in face could hide in.
func (a *Analyzer) Frame(f Frame) (Signal, error) {
	s := Signal{T: f.T}
	img, err := imgio.Decode(f.Data, imgio.Limits{MaxPixels: a.Cfg.MaxFramePixels})
	if err != nil {
		return s, fmt.Errorf("analyse frame at %v: %w", f.T, err)
	}
	dets, err := a.Detector.Detect(img)
	if err != nil {
		return s, fmt.Errorf("analyse frame at %v: %w", f.T, err)
	}
	// Faces are counted as the face engine counts them in a photo: a
	// face found again inside another is one face, and faces far weaker
	// or far smaller than the subject are not counted (face.Subject).
	var meshes []facemesh.Mesh
	var regions []face.Region
	for _, d := range dets {
		m, err := a.Mesher.Run(img, d)
		if err != nil {
			return s, fmt.Errorf("analyse frame at %v: %w", f.T, err)
		}
		if m.Score < a.Cfg.MinMeshScore {
			continue
		}
		r := face.MeshRegion(&m.Points, d.Score)
		if r.Duplicate(regions) {
			continue
		}
		meshes, regions = append(meshes, m), append(regions, r)
	}
	subject, others := face.Subject(regions)
	if subject < 0 {
		return s, nil
	}
	s.Faces = 1 + len(others)
	best := meshes[subject]
	// The descriptor is aligned on the mesh model's own eye corners, as
	// the face engine's (the refined lids move them: up to 0.2 apart in
	// descriptor distance on Foreman).
	unrefined := best
	if err := a.Eyelids.Refine(img, &best); err != nil {
		return s, fmt.Errorf("analyse frame at %v: %w", f.T, err)
	}
	s.Pose, s.Eyes = pose.Estimate(&best), pose.EyeAspect(&best)
	s.Centre, s.Size = extent(&best)
	if a.Describe != nil && abs(s.Pose.Yaw) <= a.Cfg.SelfieMaxYaw {
		if s.Descriptor, err = a.Describe(img, &unrefined); err != nil {
			return s, fmt.Errorf("analyse frame at %v: %w", f.T, err)
		}
		if s.Sharpness, err = faceSharpness(img, s.Centre, s.Size); err != nil {
			return s, fmt.Errorf("analyse frame at %v: %w", f.T, err)
		}
	}
	return s, nil
}

// extent is the centre and longer side of the mesh points' bounding box.
func extent(m *facemesh.Mesh) ([2]float64, float64) {
	minX, minY, maxX, maxY := m.Points[0][0], m.Points[0][1], m.Points[0][0], m.Points[0][1]
	for _, p := range m.Points {
		minX, maxX = min(minX, p[0]), max(maxX, p[0])
		minY, maxY = min(minY, p[1]), max(maxY, p[1])
	}
	return [2]float64{(minX + maxX) / 2, (minY + maxY) / 2}, max(maxX-minX, maxY-minY)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
