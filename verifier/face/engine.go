package face

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	"github.com/idgate/idgate/verifier/face/facerec"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/models"
	"github.com/idgate/idgate/verifier/face/spoof"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
	"github.com/idgate/idgate/verifier/imgio"
)

// Coded errors for images that cannot be matched; callers map them to the
// public error body.
var (
	ErrNoFace        = errors.New("no face found")
	ErrMultipleFaces = errors.New("more than one face found")
	ErrFaceTooSmall  = errors.New("face too small")
)

// Options bound the engine's work and its judgements.
type Options struct {
	// MaxPixels bounds decoded images (0: imgio.DefaultMaxPixels).
	MaxPixels int
	// MinFaceSize is the smallest accepted face, in pixels across the
	// mesh (cheek to cheek or forehead to chin, whichever is larger).
	MinFaceSize float64
	// MinScore is the mesh face-presence score below which a detection is
	// not treated as a face.
	MinScore float32
	// Thresholds turn descriptor distance into match tiers.
	Thresholds match.Thresholds
}

// DefaultOptions: 12 MP images, faces at least 40 px across (license
// portraits are often ~100 px), mesh score ≥ 0.5, calibrated tiers.
var DefaultOptions = Options{MinFaceSize: 40, MinScore: 0.5, Thresholds: match.Default}

// Engine holds the loaded models; it is immutable and shared. Each
// goroutine works through its own Analyzer.
type Engine struct {
	opt                 Options
	detector, mesh      *tfjs.Model
	antispoof, liveness *tfjs.Model
	recognition         *facerec.Net
}

// Load verifies and loads every model from dir ("" = models.DefaultDir()).
// A missing or corrupt file fails with an error naming `make models`.
func Load(dir string, opt Options) (*Engine, error) {
	set, err := models.Open(dir, models.Hashes)
	if err != nil {
		return nil, fmt.Errorf("load face engine: %w", err)
	}
	e := &Engine{opt: opt}
	for _, m := range []struct {
		dst  **tfjs.Model
		file string
	}{
		{&e.detector, blazeface.ModelFile}, {&e.mesh, facemesh.ModelFile},
		{&e.antispoof, spoof.AntispoofFile}, {&e.liveness, spoof.LivenessFile},
	} {
		if *m.dst, err = tfjs.Load(set.ReadFile, m.file); err != nil {
			return nil, fmt.Errorf("load face engine: %w", err)
		}
	}
	if e.recognition, err = facerec.Load(set.ReadFile); err != nil {
		return nil, fmt.Errorf("load face engine: %w", err)
	}
	return e, nil
}

// Face is one analysed face.
type Face struct {
	// Box is the face's square region (mesh-centred), x, y, width, height
	// in pixels, clamped to the image.
	Box [4]int
	// DetectorScore and MeshScore are the two models' confidences.
	DetectorScore, MeshScore float32
	// Size is the face's extent across the mesh in pixels.
	Size float64
	// Mesh holds the 468 landmarks (x, y in pixels, z relative depth).
	Mesh *[facemesh.Points][3]float64
	// Real and Live are the passive anti-spoof and liveness scores (0..1).
	Real, Live float32
	// Descriptor is the 128-D face-api descriptor of the face crop.
	Descriptor [facerec.Dim]float32
}

// Analyzer runs the engine with its own buffers; not for concurrent use.
type Analyzer struct {
	e         *Engine
	det       *blazeface.Detector
	mesh      *facemesh.Mesher
	anti, liv *spoof.Scorer
	emb       *facerec.Embedder
	crop      tensor.Tensor
	// small and padded are detectWithMargin's buffers.
	small, padded tensor.Tensor
}

// NewAnalyzer prepares per-goroutine state.
func (e *Engine) NewAnalyzer() *Analyzer {
	return &Analyzer{
		e: e, det: blazeface.New(e.detector, blazeface.Defaults), mesh: facemesh.New(e.mesh),
		anti: spoof.NewAntispoof(e.antispoof), liv: spoof.NewLiveness(e.liveness),
		emb: e.recognition.NewEmbedder(),
	}
}

// Decode reads untrusted image bytes within the engine's pixel bound.
func (a *Analyzer) Decode(data []byte) (*tensor.Tensor, error) {
	return imgio.Decode(data, imgio.Limits{MaxPixels: a.e.opt.MaxPixels})
}

// Analyze finds every face in img ([1, h, w, 3] RGB 0..255) whose mesh
// confirms it, largest first. When there is none, it looks again with a
// border around the image (detectWithMargin), for faces filling the frame.
func (a *Analyzer) Analyze(img *tensor.Tensor) ([]Face, error) {
	dets, err := a.det.Detect(img)
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	faces, err := a.confirm(img, dets)
	if err != nil || len(faces) > 0 {
		return faces, err
	}
	if dets, err = a.detectWithMargin(img); err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	return a.confirm(img, dets)
}

// confirm runs the mesh on each detection and completes the faces it
// confirms (scores, box, descriptor), largest first. A face found again
// inside one already confirmed (Region.Duplicate) is dropped before the
// costly steps; dets come strongest first, as the detector returns them.
func (a *Analyzer) confirm(img *tensor.Tensor, dets []blazeface.Face) ([]Face, error) {
	h, w := img.Shape[1], img.Shape[2]
	var faces []Face
	var kept []Region
	for _, d := range dets {
		m, err := a.mesh.Run(img, d)
		if err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
		if m.Score < a.e.opt.MinScore {
			continue
		}
		r := MeshRegion(&m.Points, d.Score)
		if r.Duplicate(kept) {
			continue
		}
		kept = append(kept, r)
		f := Face{DetectorScore: d.Score, MeshScore: m.Score, Mesh: &m.Points, Size: r.Size,
			Box: clampBox(r.Box[0], r.Box[1], r.Box[2], r.Box[3], w, h)}
		if f.Real, err = a.anti.Score(a.mesh.Crop()); err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
		if f.Live, err = a.liv.Score(a.mesh.Crop()); err != nil {
			return nil, fmt.Errorf("analyze: %w", err)
		}
		if f.Size >= a.e.opt.MinFaceSize {
			if f.Descriptor, err = a.Describe(img, &m.Points); err != nil {
				return nil, fmt.Errorf("analyze: %w", err)
			}
		}
		faces = append(faces, f)
	}
	sortBySize(faces)
	return faces, nil
}

// Describe computes the descriptor of the face whose mesh landmarks
// (as the mesh model gives them, before any eyelid refinement) are p, as
// Analyze does for the faces it confirms: the eye-aligned crop, zero
// outside the image, through the recognition net.
func (a *Analyzer) Describe(img *tensor.Tensor, p *[facemesh.Points][3]float64) ([facerec.Dim]float32, error) {
	if err := AlignedCrop(&a.crop, img, p, facerec.Align, facerec.InputSize); err != nil {
		return [facerec.Dim]float32{}, fmt.Errorf("describe: %w", err)
	}
	return a.emb.Descriptor(&a.crop)
}

// Mesh landmarks at the eye corners (MediaPipe indices): image-left eye
// (the subject's right) outer and inner, image-right eye inner and outer.
const (
	rightEyeOuter, rightEyeInner = 33, 133
	leftEyeInner, leftEyeOuter   = 362, 263
)

// AlignedCrop cuts the face whose mesh landmarks are p from img into dst,
// side×side, placed by g around the eye centres (zero outside the image).
func AlignedCrop(dst, img *tensor.Tensor, p *[facemesh.Points][3]float64, g facerec.Geometry, side int) error {
	right := [2]float64{(p[rightEyeOuter][0] + p[rightEyeInner][0]) / 2, (p[rightEyeOuter][1] + p[rightEyeInner][1]) / 2}
	left := [2]float64{(p[leftEyeInner][0] + p[leftEyeOuter][0]) / 2, (p[leftEyeInner][1] + p[leftEyeOuter][1]) / 2}
	return tensor.WarpAffine(dst, img, g.Matrix(right, left, side), side, side)
}

// Single analyses img and requires one usable face: the subject, with no
// other face that counts beside it (Subject: faces far weaker or far
// smaller are ignored), unless that face is a copy of the subject's own:
// a descriptor at definite_match distance is the same person (a license's
// ghost portrait, a license held up beside the face), and taking the
// subject decides nothing wrongly. Sizes measured across the mesh are
// noisy on small copies: a copy printed at 0.55 of the side measured 0.64
// on amy1, past DominantRatio.
func (a *Analyzer) Single(img *tensor.Tensor) (Face, error) {
	faces, err := a.Analyze(img)
	if err != nil {
		return Face{}, err
	}
	if len(faces) == 0 {
		return Face{}, ErrNoFace
	}
	regions := make([]Region, len(faces))
	for i, f := range faces {
		regions[i] = Region{Size: f.Size, Score: f.DetectorScore}
	}
	subject, others := Subject(regions)
	f := faces[subject]
	others = slices.DeleteFunc(others, func(i int) bool { return a.sameFace(f, faces[i]) })
	switch {
	case len(others) > 0:
		return Face{}, fmt.Errorf("%w (%d of similar size and score)", ErrMultipleFaces, 1+len(others))
	case f.Size < a.e.opt.MinFaceSize:
		return Face{}, fmt.Errorf("%w: %.0f px across, need %.0f", ErrFaceTooSmall, f.Size, a.e.opt.MinFaceSize)
	}
	return f, nil
}

// sameFace reports whether g is a copy of f's face: both described and
// a definite match.
func (a *Analyzer) sameFace(f, g Face) bool {
	if f.Size < a.e.opt.MinFaceSize || g.Size < a.e.opt.MinFaceSize {
		return false // no descriptor
	}
	r, err := a.e.opt.Thresholds.Compare(f.Descriptor[:], g.Descriptor[:])
	return err == nil && r.Tier == match.DefiniteMatch
}

// Compare matches the single face of each image.
func (a *Analyzer) Compare(imgA, imgB *tensor.Tensor) (match.Result, error) {
	fa, err := a.Single(imgA)
	if err != nil {
		return match.Result{}, fmt.Errorf("compare first image: %w", err)
	}
	fb, err := a.Single(imgB)
	if err != nil {
		return match.Result{}, fmt.Errorf("compare second image: %w", err)
	}
	return a.e.opt.Thresholds.Compare(fa.Descriptor[:], fb.Descriptor[:])
}

func extent(p *[facemesh.Points][3]float64) (lo, hi blazeface.Point) {
	lo = blazeface.Point{X: math.Inf(1), Y: math.Inf(1)}
	hi = blazeface.Point{X: math.Inf(-1), Y: math.Inf(-1)}
	for _, q := range p {
		lo.X, lo.Y = math.Min(lo.X, q[0]), math.Min(lo.Y, q[1])
		hi.X, hi.Y = math.Max(hi.X, q[0]), math.Max(hi.Y, q[1])
	}
	return lo, hi
}

// squareAround is the square on the longer side of lo–hi, same centre.
func squareAround(lo, hi blazeface.Point) (x0, y0, x1, y1 float64) {
	cx, cy := (lo.X+hi.X)/2, (lo.Y+hi.Y)/2
	half := math.Max(hi.X-lo.X, hi.Y-lo.Y) / 2
	return cx - half, cy - half, cx + half, cy + half
}

func clampBox(x0, y0, x1, y1 float64, w, h int) [4]int {
	cx0, cy0 := math.Max(0, x0), math.Max(0, y0)
	cx1, cy1 := math.Min(float64(w), x1), math.Min(float64(h), y1)
	return [4]int{int(cx0), int(cy0), int(math.Max(0, cx1-cx0)), int(math.Max(0, cy1-cy0))}
}

func sortBySize(f []Face) {
	for i := 1; i < len(f); i++ {
		for j := i; j > 0 && f[j].Size > f[j-1].Size; j-- {
			f[j], f[j-1] = f[j-1], f[j]
		}
	}
}
