package main

// Where a box carried from the last frame goes wrong, measured on the
// server's own pipeline (Go, no browser): the mesh of frame i cropped from
// a box other than frame i's detector box, beside the server's reading of
// frame i. The mesh's depth, and so the yaw, depends on the crop; the
// server crops every frame at its detector's box (BlazeFace's, ×1.4,
// square). On every 2nd frame (the 1st with the detector):
//
//	kept box            Human's cache: the last mesh's box (the last
//	                    detector box's size, re-centred on the last mesh)
//	last detector box   the previous frame's detector box: what any box
//	                    carried from the last frame can at best be
//	                    without predicting the motion
//	fitted, same frame  a box fitted to the detector's from the mesh's
//	                    landmarks (least squares over these clips),
//	                    from frame i's own mesh: the fit's own error
//	fitted, last mesh   the same from the previous frame's mesh: what
//	                    "our own" box from the last mesh would do
//	kept size, centre   Human's kept box's size (the last detector box's)
//	fitted              at the centre fitted from the last mesh
//
// and, the detector on every 3rd frame, its box carried unmoved over the
// two frames after it (a box up to two frames old, 200 ms at these
// clips' 10 frames a second: what the page's own step carries when
// tracking falls behind the recorder).

import (
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/idgate/idgate/verifier/face/blazeface"
	"github.com/idgate/idgate/verifier/face/facemesh"
	facelive "github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/pose"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

// boxFrame is one frame as the server sees it: its image, detector box
// and mesh on that box.
type boxFrame struct {
	img  *tensor.Tensor
	det  blazeface.Face
	mesh facemesh.Mesh
	ok   bool
}

// landmarks the fit reads: nose tip, the eyes' corners, the mouth, the
// cheeks, forehead and chin (facepose.ts's and pose.go's points among
// them).
var fitPoints = []int{1, 33, 133, 263, 362, 13, 14, 234, 454, 10, 152}

func features(m *facemesh.Mesh, axis int) []float64 {
	f := []float64{1}
	for _, i := range fitPoints {
		f = append(f, m.Points[i][axis])
	}
	return f
}

// fitBox fits the detector box's centre (x, y) and half side from the
// same frame's mesh.
type fitBox struct{ cx, cy, half *mat.VecDense }

func (b fitBox) of(m *facemesh.Mesh) blazeface.Face {
	dot := func(w *mat.VecDense, f []float64) float64 { return mat.Dot(w, mat.NewVecDense(len(f), f)) }
	fx, fy := features(m, 0), features(m, 1)
	cx, cy := dot(b.cx, fx), dot(b.cy, fy)
	half := dot(b.half, append(fx, fy[1:]...))
	return blazeface.Face{Min: blazeface.Point{X: cx - half, Y: cy - half}, Max: blazeface.Point{X: cx + half, Y: cy + half}}
}

func leastSquares(rows [][]float64, y []float64) (*mat.VecDense, error) {
	if len(rows) <= len(fitPoints)*2 {
		return nil, fmt.Errorf("levers: %d face frames, too few to fit a box", len(rows))
	}
	a := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		a.SetRow(i, r)
	}
	var w mat.VecDense
	if err := w.SolveVec(a, mat.NewVecDense(len(y), y)); err != nil {
		return nil, fmt.Errorf("levers: fitting the box: %w", err)
	}
	return &w, nil
}

func boxLevers(an *facelive.Analyzer, clips []clip) error {
	frames, err := serverFrames(an, clips)
	if err != nil {
		return err
	}
	var rx, ry, rh [][]float64
	var yx, yy, yh []float64
	for _, c := range clips {
		for _, bf := range frames[c.name] {
			if bf.ok {
				fx, fy := features(&bf.mesh, 0), features(&bf.mesh, 1)
				rx, ry, rh = append(rx, fx), append(ry, fy), append(rh, append(fx, fy[1:]...))
				yx = append(yx, (bf.det.Min.X+bf.det.Max.X)/2)
				yy = append(yy, (bf.det.Min.Y+bf.det.Max.Y)/2)
				yh = append(yh, (bf.det.Max.X-bf.det.Min.X)/2)
			}
		}
	}
	var fit fitBox
	for _, f := range []struct {
		w    **mat.VecDense
		rows [][]float64
		y    []float64
	}{{&fit.cx, rx, yx}, {&fit.cy, ry, yy}, {&fit.half, rh, yh}} {
		if *f.w, err = leastSquares(f.rows, f.y); err != nil {
			return err
		}
	}
	// every: the detector runs on every every-th frame; the frames
	// between carry a box (prev is the frame the detector last ran on).
	variants := []struct {
		name  string
		every int
		box   func(prev, cur boxFrame, prevMesh *facemesh.Mesh) blazeface.Face
	}{
		{"kept box (Human's skipFrames)", 2, func(_, _ boxFrame, pm *facemesh.Mesh) blazeface.Face {
			return blazeface.Face{Min: pm.Min, Max: pm.Max}
		}},
		{"last frame's detector box", 2, func(prev, _ boxFrame, _ *facemesh.Mesh) blazeface.Face { return prev.det }},
		{"detector every 3rd, its box carried", 3, func(prev, _ boxFrame, _ *facemesh.Mesh) blazeface.Face { return prev.det }},
		{"fitted from the same frame's mesh", 2, func(_, cur boxFrame, _ *facemesh.Mesh) blazeface.Face { return fit.of(&cur.mesh) }},
		{"fitted from the last frame's mesh", 2, func(_, _ boxFrame, pm *facemesh.Mesh) blazeface.Face { return fit.of(pm) }},
		{"kept size, centre fitted from last mesh", 2, func(_, _ boxFrame, pm *facemesh.Mesh) blazeface.Face {
			f := fit.of(pm)
			cx, cy, half := (f.Min.X+f.Max.X)/2, (f.Min.Y+f.Max.Y)/2, (pm.Max.X-pm.Min.X)/2
			return blazeface.Face{Min: blazeface.Point{X: cx - half, Y: cy - half}, Max: blazeface.Point{X: cx + half, Y: cy + half}}
		}},
		// The detector on every 3rd frame: the frame after it on its box,
		// the next on its size at the centre fitted from the last mesh.
		{"every 3rd, then kept size, centre fitted", 3, func(prev, _ boxFrame, pm *facemesh.Mesh) blazeface.Face {
			if pm.Points == prev.mesh.Points {
				return prev.det
			}
			f := fit.of(pm)
			cx, cy, half := (f.Min.X+f.Max.X)/2, (f.Min.Y+f.Max.Y)/2, (prev.det.Max.X-prev.det.Min.X)/2
			return blazeface.Face{Min: blazeface.Point{X: cx - half, Y: cy - half}, Max: blazeface.Point{X: cx + half, Y: cy + half}}
		}},
	}
	fmt.Println("tracker levers, the server's pipeline with a box carried from the last frame on every 2nd frame, or from the last two on every 3rd (Go, same frames):")
	for _, v := range variants {
		r, err := carryRun(an, frames, clips, v.every, false, v.box)
		if err != nil {
			return err
		}
		fmt.Printf("  %-36s ", v.name)
		r.print()
	}
	return nil
}

// serverFrames reads each clip's frames as the server does (detector,
// then the mesh on its box).
func serverFrames(an *facelive.Analyzer, clips []clip) (map[string][]boxFrame, error) {
	frames := map[string][]boxFrame{}
	for _, c := range clips {
		for _, data := range c.frames {
			img, err := imgio.Decode(data, imgio.Limits{MaxPixels: 1 << 22})
			if err != nil {
				return nil, err
			}
			bf := boxFrame{img: img}
			dets, err := an.Detector.Detect(img)
			if err != nil {
				return nil, err
			}
			if len(dets) > 0 {
				bf.det = dets[0]
				if bf.mesh, err = an.Mesher.Run(img, bf.det); err != nil {
					return nil, err
				}
				bf.ok = bf.mesh.Score >= an.Cfg.MinMeshScore
			}
			frames[c.name] = append(frames[c.name], bf)
		}
	}
	return frames, nil
}

// carried is what a carried box did on the turn clips: the yaw's
// difference from the server's on each carried frame, how far the face
// had moved since the detector's frame (in the box's sides), and each
// turn's peak less the server's.
type carried struct {
	diffs, moved, peaks []float64
}

// carryRun runs the detector on every every-th frame and crops the
// frames between from box (prev is the frame the detector last ran on);
// back (every 2) runs it on every 2nd frame and carries its box back to
// the frame before (prev is then the frame after).
func carryRun(an *facelive.Analyzer, frames map[string][]boxFrame, clips []clip, every int, back bool, box func(prev, cur boxFrame, prevMesh *facemesh.Mesh) blazeface.Face) (carried, error) {
	var r carried
	for _, c := range clips {
		fs := frames[c.name]
		yaws := make([]float64, len(fs))
		var prevMesh facemesh.Mesh
		for i, f := range fs {
			yaws[i] = math.NaN()
			if !f.ok {
				continue
			}
			m := f.mesh
			d := i - i%every
			if back {
				d = i + 1 - i%2
			}
			if d != i && d < len(fs) && fs[d].ok {
				b := box(fs[d], f, &prevMesh)
				got, err := an.Mesher.Run(f.img, b)
				if err != nil {
					return r, err
				}
				m = got
				r.diffs = append(r.diffs, math.Abs(pose.Estimate(&m).Yaw-pose.Estimate(&f.mesh).Yaw))
				// How far the face moved from the detector's frame, by
				// the two meshes' centres, in the carried box's sides.
				r.moved = append(r.moved, math.Hypot((m.Min.X+m.Max.X-fs[d].mesh.Min.X-fs[d].mesh.Max.X)/2,
					(m.Min.Y+m.Max.Y-fs[d].mesh.Min.Y-fs[d].mesh.Max.Y)/2)/(b.Max.X-b.Min.X))
			}
			prevMesh = m
			yaws[i] = pose.Estimate(&m).Yaw
		}
		for _, t := range c.turns {
			sp, pp := math.Inf(-1), math.Inf(-1)
			for i := t.from; i <= t.to && i < len(fs); i++ {
				if i >= 0 && fs[i].ok {
					sp = math.Max(sp, float64(t.side)*pose.Estimate(&fs[i].mesh).Yaw)
					pp = math.Max(pp, float64(t.side)*yaws[i])
				}
			}
			// Frames far apart may sample no frame of a turn (500 ms
			// apart: 2 of the 16): that turn has no peak to compare.
			if d := pp - sp; !math.IsNaN(d) && !math.IsInf(d, 0) {
				r.peaks = append(r.peaks, d)
			}
		}
	}
	return r, nil
}

func (r carried) print() {
	var peaks []string
	worst, over := math.Inf(-1), 0
	for _, p := range r.peaks {
		peaks = append(peaks, fmt.Sprintf("%+.1f", p))
		worst = math.Max(worst, p)
		if p > 1 {
			over++
		}
	}
	fmt.Printf("yaw off the server's on the carried frames: median %.1f° p90 %.1f° max %.1f° (%d frames); turn peaks %s (worst %+.1f°, %d of %d over the server's by more than 1°)",
		median64or0(r.diffs), pct(r.diffs, 0.9), pct(r.diffs, 1), len(r.diffs), strings.Join(peaks, " "), worst, over, len(r.peaks))
	// The yaw's error against how far the face moved since the
	// detector's frame (a bound on the move is what the page can check
	// before it trusts a carried box).
	fmt.Printf("; face moved median %.3f p90 %.3f max %.3f of the box", median64or0(r.moved), pct(r.moved, 0.9), pct(r.moved, 1))
	for _, bound := range []float64{0.03, 0.05, 0.08} {
		var under []float64
		for k, mv := range r.moved {
			if mv <= bound {
				under = append(under, r.diffs[k])
			}
		}
		fmt.Printf("; moved ≤ %.2f: %d frames, yaw off p90 %.1f° max %.1f°", bound, len(under), pct(under, 0.9), pct(under, 1))
	}
	fmt.Println()
}

// carrySpacings: the last frame's detector box carried to the frame
// after, with the frames further apart than the levers' 100 ms: how long
// the page may carry a box when its next frame comes late (the page's
// thread at 4×, where a detector frame holds up the recorder's timer:
// facetrack.ts, carryMs); and a frame's detector box carried back to
// the frame before it (a page that waits for the next frame, runs the
// detector on it and reads the frame before on its box: the two are
// then one timer's period apart, however long the detector takes).
func carrySpacings(an *facelive.Analyzer, root string) error {
	fmt.Println("tracker levers, the last frame's detector box carried to the frame after, frames further apart (Go, the server's pipeline, the turn clips sampled anew):")
	// 300–500 ms: how far a free-running tracker's carried box (the
	// detector's, up to its bound) reads the yaw off, forward only.
	for _, apart := range []time.Duration{100, 125, 150, 200, 300, 400, 500} {
		clips, err := turnClips(root, apart*time.Millisecond)
		if err != nil {
			return err
		}
		frames, err := serverFrames(an, clips)
		if err != nil {
			return err
		}
		det := func(other, _ boxFrame, _ *facemesh.Mesh) blazeface.Face { return other.det }
		for _, back := range []bool{false, true} {
			if back && apart > 200 {
				continue
			}
			r, err := carryRun(an, frames, clips, 2, back, det)
			if err != nil {
				return err
			}
			way := "to the frame after"
			if back {
				way = "back to the frame before"
			}
			fmt.Printf("  frames %3d ms apart, %-24s ", apart, way+":")
			r.print()
		}
	}
	return nil
}
