package pose

import (
	"fmt"
	"math"

	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// IrisModelFile is MediaPipe's iris/eye-contour model as shipped in
// Human's models/iris.json (64×64 eye crop in, 71 eye-contour and 5 iris
// points out).
const IrisModelFile = "human/iris.json"

const (
	meshInput = 192 // the face crop the mesh model sees
	irisInput = 64
	// eyeEnlarge widens the corner-to-corner box into the eye crop, as
	// MediaPipe's iris pipeline (and Human) do.
	eyeEnlarge = 2.3
	// contour points the model returns per eye before the 5 iris points.
	irisContour = 71
	irisPoints  = irisContour + 5
)

// Eyelid contours in mesh indices, in the iris model's output order: its
// points 0–8 are the lower lid corner to corner, 9–15 the upper lid.
var (
	rightLower = [9]int{33, 7, 163, 144, 145, 153, 154, 155, 133}
	rightUpper = [7]int{246, 161, 160, 159, 158, 157, 173}
	leftLower  = [9]int{263, 249, 390, 373, 374, 380, 381, 382, 362}
	leftUpper  = [7]int{466, 388, 387, 386, 385, 384, 398}
)

// Eyelids refines the mesh's eyelid points with the iris model. The mesh
// model alone smooths the lids: on the Foreman blink its eye aspect ratio
// drops only about a quarter, barely more than a squint; the iris model,
// run on a close crop of each eye, follows the lids to closure. It holds
// buffers: use one per goroutine.
type Eyelids struct {
	sess *tfjs.Session
	crop tensor.Tensor
}

// NewEyelids prepares a refiner on the loaded iris model.
func NewEyelids(m *tfjs.Model) *Eyelids { return &Eyelids{sess: m.NewSession()} }

// Refine replaces the upper and lower eyelid contours of both eyes in m
// (mesh indices rightLower, rightUpper, leftLower, leftUpper) with the
// iris model's points; img is the image the mesh was computed on. Each
// eye's crop is the square around its corners enlarged 2.3 times, as in
// MediaPipe and Human; Human cuts it from the 192 px face crop the mesh
// saw, we cut it from the image directly (one resampling instead of two),
// which needs only the mesh. Depth becomes the mean of the mesh's and the
// iris model's, as in Human.
func (e *Eyelids) Refine(img *tensor.Tensor, m *facemesh.Mesh) error {
	_, h, w, _, err := img.Dims4()
	if err != nil {
		return fmt.Errorf("refine eyelids: %w", err)
	}
	// Model depth is in 192 px face-crop units; x and y are image pixels.
	zs := (m.Max.X - m.Min.X) / meshInput
	if !(zs > 0) {
		return fmt.Errorf("refine eyelids: empty face box %v-%v", m.Min, m.Max)
	}
	// The model is trained on the subject's right eye (image left); the
	// left eye is mirrored in and its points mirrored back.
	for _, eye := range []struct {
		lower [9]int
		upper [7]int
		flip  bool
	}{{rightLower, rightUpper, false}, {leftLower, leftUpper, true}} {
		a, b := m.Points[eye.lower[0]], m.Points[eye.lower[8]]
		x0, y0, x1, y1 := eyeBox(a[0], a[1], b[0], b[1])
		err := tensor.CropAndResize(&e.crop, img, y0/float64(h), x0/float64(w), y1/float64(h), x1/float64(w), irisInput, irisInput, 0)
		if err != nil {
			return fmt.Errorf("refine eyelids: %w", err)
		}
		for i, v := range e.crop.Data {
			e.crop.Data[i] = v / 255
		}
		if eye.flip {
			mirror(&e.crop)
		}
		out, err := e.run()
		if err != nil {
			return err
		}
		// The model's x, y are in crop pixels; its z is in crop pixels
		// too, which are (x1−x0)/64 image pixels or that / zs mesh units.
		side := x1 - x0
		set := func(idx, k int) {
			u := float64(out[3*k]) / irisInput
			if eye.flip {
				u = 1 - u
			}
			z := float64(out[3*k+2]) * side / irisInput / zs
			m.Points[idx] = [3]float64{x0 + u*side, y0 + float64(out[3*k+1])/irisInput*(y1-y0), (m.Points[idx][2] + z) / 2}
		}
		for k, idx := range eye.lower {
			set(idx, k)
		}
		for k, idx := range eye.upper {
			set(idx, len(eye.lower)+k)
		}
	}
	return nil
}

func (e *Eyelids) run() ([]float32, error) {
	if err := e.sess.Run(&e.crop); err != nil {
		return nil, fmt.Errorf("refine eyelids: %w", err)
	}
	// The model has one or two outputs depending on the export; the
	// contour is the one with 71 points, or the first 71 of 76.
	for _, name := range []string{"Identity", "Identity_1"} {
		t, err := e.sess.Output(name)
		if err != nil {
			continue
		}
		if len(t.Data) == 3*irisPoints || len(t.Data) == 3*irisContour {
			return t.Data, nil
		}
	}
	return nil, fmt.Errorf("refine eyelids: model lacks the %d-point eye contour output", irisContour)
}

// eyeBox is the square eye crop in image pixels: the corners' bounding
// box enlarged by eyeEnlarge around its centre, squared on its longer
// side.
func eyeBox(ax, ay, bx, by float64) (x0, y0, x1, y1 float64) {
	cx, cy := (ax+bx)/2, (ay+by)/2
	half := eyeEnlarge * math.Max(math.Abs(bx-ax), math.Abs(by-ay)) / 2
	return cx - half, cy - half, cx + half, cy + half
}

// mirror flips a [1, h, w, c] tensor left to right in place.
func mirror(t *tensor.Tensor) {
	_, h, w, c := t.Shape[0], t.Shape[1], t.Shape[2], t.Shape[3]
	for y := range h {
		row := t.Data[y*w*c : (y+1)*w*c]
		for x := range w / 2 {
			a, b := row[x*c:(x+1)*c], row[(w-1-x)*c:(w-x)*c]
			for k := range c {
				a[k], b[k] = b[k], a[k]
			}
		}
	}
}
