package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/match"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

func init() {
	register(command{
		Name:    "face detect",
		Summary: "find faces in an image (JPEG, PNG, WebP) and print boxes, scores and timings as JSON: [--landmarks] [--descriptor] IMAGE",
		Run:     runFaceDetect,
	})
	register(command{
		Name:    "face compare",
		Summary: "match the single face of two images and print face_match_score, confidence, cosine similarity and timings as JSON: IMAGE_A IMAGE_B",
		Run:     runFaceCompare,
	})
}

// faceJSON is one analysed face as the face commands print it.
type faceJSON struct {
	// Box is x, y, width, height in pixels (mesh-centred square, clamped).
	Box           [4]int  `json:"box"`
	SizePx        float64 `json:"size_px"`
	DetectorScore float32 `json:"detector_score"`
	MeshScore     float32 `json:"mesh_score"`
	Real          float32 `json:"antispoof_real"`
	Live          float32 `json:"passive_live"`
	// Described is false for faces below the engine's minimum size, which
	// get no descriptor.
	Described  bool         `json:"described"`
	Landmarks  [][3]float64 `json:"landmarks,omitempty"`
	Descriptor []float32    `json:"descriptor,omitempty"`
}

type faceTimingMS struct {
	Load    float64 `json:"load_models"`
	Decode  float64 `json:"decode"`
	Analyze float64 `json:"analyze"`
}

type detectReport struct {
	File      string       `json:"file"`
	Width     int          `json:"width"`
	Height    int          `json:"height"`
	Faces     []faceJSON   `json:"faces"`
	TimingsMS faceTimingMS `json:"timings_ms"`
}

func runFaceDetect(_ context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("face detect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	landmarks := fs.Bool("landmarks", false, "include the 468 mesh landmarks (x, y pixels; z relative depth)")
	descriptor := fs.Bool("descriptor", false, "include the 128-D face descriptor")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: idgate face detect [--landmarks] [--descriptor] IMAGE")
	}
	rep := detectReport{File: fs.Arg(0), Faces: []faceJSON{}}
	an, err := loadFaceAnalyzer(&rep.TimingsMS.Load)
	if err != nil {
		return err
	}
	img, err := decodeFaceImage(an, rep.File, &rep.TimingsMS.Decode)
	if err != nil {
		return err
	}
	rep.Width, rep.Height = img.Shape[2], img.Shape[1]
	start := time.Now()
	faces, err := an.Analyze(img)
	if err != nil {
		return fmt.Errorf("%s: %w", rep.File, err)
	}
	rep.TimingsMS.Analyze = sinceMS(start)
	for _, f := range faces {
		rep.Faces = append(rep.Faces, toFaceJSON(f, *landmarks, *descriptor))
	}
	return printJSON(stdout, rep)
}

type compareReport struct {
	Score      match.Tier `json:"face_match_score"`
	Confidence float64    `json:"face_match_confidence"`
	Cosine     float64    `json:"face_match_cosine_similarity"`
	Distance   float64    `json:"distance"`
	Images     [2]struct {
		File string   `json:"file"`
		Face faceJSON `json:"face"`
	} `json:"images"`
	TimingsMS struct {
		Load    float64    `json:"load_models"`
		Decode  [2]float64 `json:"decode"`
		Analyze [2]float64 `json:"analyze"`
	} `json:"timings_ms"`
}

func runFaceCompare(_ context.Context, args []string, _ io.Reader, stdout, _ io.Writer) error {
	if len(args) != 2 {
		return errors.New("usage: idgate face compare IMAGE_A IMAGE_B")
	}
	var rep compareReport
	an, err := loadFaceAnalyzer(&rep.TimingsMS.Load)
	if err != nil {
		return err
	}
	var faces [2]face.Face
	for i, name := range args {
		img, err := decodeFaceImage(an, name, &rep.TimingsMS.Decode[i])
		if err != nil {
			return err
		}
		start := time.Now()
		if faces[i], err = an.Single(img); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rep.TimingsMS.Analyze[i] = sinceMS(start)
		rep.Images[i].File = name
		rep.Images[i].Face = toFaceJSON(faces[i], false, false)
	}
	res, err := face.DefaultOptions.Thresholds.Compare(faces[0].Descriptor[:], faces[1].Descriptor[:])
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	rep.Score, rep.Confidence, rep.Cosine, rep.Distance = res.Tier, res.Confidence, res.Cosine, res.Distance
	return printJSON(stdout, rep)
}

// loadFaceAnalyzer loads the engine from the verified model set
// (IDGATE_MODELS_DIR or var/models) and records how long that took.
func loadFaceAnalyzer(ms *float64) (*face.Analyzer, error) {
	start := time.Now()
	eng, err := face.Load("", face.DefaultOptions)
	if err != nil {
		return nil, err
	}
	*ms = sinceMS(start)
	return eng.NewAnalyzer(), nil
}

// decodeFaceImage reads a bounded file and decodes it within the engine's
// pixel bound (EXIF orientation applied).
func decodeFaceImage(an *face.Analyzer, name string, ms *float64) (*tensor.Tensor, error) {
	data, err := imgio.ReadFile(name, imageFile)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	img, err := an.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	*ms = sinceMS(start)
	return img, nil
}

func toFaceJSON(f face.Face, landmarks, descriptor bool) faceJSON {
	j := faceJSON{Box: f.Box, SizePx: f.Size, DetectorScore: f.DetectorScore, MeshScore: f.MeshScore,
		Real: f.Real, Live: f.Live, Described: f.Size >= face.DefaultOptions.MinFaceSize}
	if landmarks {
		j.Landmarks = f.Mesh[:]
	}
	if descriptor && j.Described {
		j.Descriptor = f.Descriptor[:]
	}
	return j
}

func sinceMS(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
