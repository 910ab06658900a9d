package face

import (
	"fmt"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/tensor"
)

// marginFraction is the black border added on each side, as a fraction of
// the image's longer side, when the detector finds no face that the mesh
// confirms. BlazeFace was trained on faces with context around them; on a
// tight crop where the face fills the frame (license portraits, passport
// crops) its best box can land off the face. labeled/leonard5.png is one:
// Human's detector on tfjs-wasm gives the same off-face box (score 0.41)
// and Human then reports no face, so it is the model's limit, not our
// port's; inside a quarter-side border the detector finds the face at 0.89
// (borders of a sixth to a half of the side all work: 0.84–0.89) and the
// mesh confirms it.
const marginFraction = 0.25

// marginMaxSide bounds the longer side of the image the bordered copy is
// made from: the detector sees 256 px anyway, and a bordered 12 MP photo
// would cost another 100 MB.
const marginMaxSide = 512

// detectWithMargin runs the detector on img inside a black border and
// maps the boxes back to img's coordinates (they may extend past it). The
// border is black because the mesh and descriptor crops read outside the
// image as black: everything after detection runs on img itself and sees
// the same pixels.
func (a *Analyzer) detectWithMargin(img *tensor.Tensor) ([]blazeface.Face, error) {
	_, h, w, c, err := img.Dims4()
	if err != nil {
		return nil, fmt.Errorf("detect with margin: %w", err)
	}
	src, scale := img, 1.0
	if side := max(h, w); side > marginMaxSide {
		scale = float64(marginMaxSide) / float64(side)
		h, w = max(1, int(float64(h)*scale+0.5)), max(1, int(float64(w)*scale+0.5))
		if err := tensor.ResizeBilinear(&a.small, img, h, w); err != nil {
			return nil, fmt.Errorf("detect with margin: %w", err)
		}
		src = &a.small
	}
	pad := int(marginFraction * float64(max(h, w)))
	pw := w + 2*pad
	a.padded.Resize(1, h+2*pad, pw, c)
	clear(a.padded.Data)
	for y := range h {
		copy(a.padded.Data[((y+pad)*pw+pad)*c:], src.Data[y*w*c:(y+1)*w*c])
	}
	dets, err := a.det.Detect(&a.padded)
	if err != nil {
		return nil, fmt.Errorf("detect with margin: %w", err)
	}
	shift := func(p *blazeface.Point) {
		p.X, p.Y = (p.X-float64(pad))/scale, (p.Y-float64(pad))/scale
	}
	for i := range dets {
		d := &dets[i]
		shift(&d.Min)
		shift(&d.Max)
		shift(&d.RawMin)
		shift(&d.RawMax)
		for k := range d.Keypoints {
			shift(&d.Keypoints[k])
		}
	}
	return dets, nil
}
