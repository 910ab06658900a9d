package facerec

import (
	"fmt"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// Embedder computes descriptors with reusable buffers; one per goroutine.
type Embedder struct {
	net               *Net
	ws                tensor.Workspace
	sq, in            tensor.Tensor
	x, t1, t2, t3, t4 tensor.Tensor
	desc              tensor.Tensor
}

// NewEmbedder prepares buffers for net.
func (n *Net) NewEmbedder() *Embedder { return &Embedder{net: n} }

var (
	relu  = tensor.Activation{Kind: tensor.ActRelu}
	noAct = tensor.Activation{}
)

// Descriptor returns the 128-D descriptor of a face crop: img is a
// [1, h, w, 3] RGB tensor (0..255), zero-padded to a centred square,
// resized to 150×150 (TF's legacy bilinear), normalised, then run through
// the network. Feed it the landmark-aligned crop.
func (e *Embedder) Descriptor(img *tensor.Tensor) ([Dim]float32, error) {
	var out [Dim]float32
	if err := e.prepare(img); err != nil {
		return out, fmt.Errorf("face descriptor: %w", err)
	}
	if err := e.forward(); err != nil {
		return out, fmt.Errorf("face descriptor: %w", err)
	}
	copy(out[:], e.desc.Data)
	return out, nil
}

// prepare pads to a square (the odd pixel of padding goes first, as in
// face-api's padToSquare), resizes and normalises into e.in.
func (e *Embedder) prepare(img *tensor.Tensor) error {
	_, h, w, c, err := img.Dims4()
	if err != nil {
		return err
	}
	if c != 3 || h < 1 || w < 1 {
		return fmt.Errorf("want an RGB image, got shape %v", img.Shape)
	}
	src := img
	if h != w {
		diff := max(h, w) - min(h, w)
		after := (diff + 1) / 2 // Math.round(diff·0.5)
		before := diff - after
		pads := [][2]int{{0, 0}, {0, 0}, {0, 0}, {0, 0}}
		if h > w {
			pads[2] = [2]int{before, after}
		} else {
			pads[1] = [2]int{before, after}
		}
		if err := tensor.Pad(&e.sq, img, pads, 0); err != nil {
			return err
		}
		src = &e.sq
	}
	if src.Shape[1] != InputSize {
		if err := tensor.ResizeBilinear(&e.in, src, InputSize, InputSize); err != nil {
			return err
		}
	} else {
		e.in.CopyFrom(src)
	}
	for i := range e.in.Data {
		e.in.Data[i] = (e.in.Data[i] - meanRGB[i%3]) / 255
	}
	return nil
}

func (e *Embedder) forward() error {
	n := e.net
	// Stem: 7×7 stride-2 valid conv, relu, 3×3 stride-2 valid max pool.
	if err := tensor.Conv2D(&e.ws, &e.t1, &e.in, n.stem.filter, n.stem.bias, tensor.ConvParams{StrideH: 2, StrideW: 2, Act: relu}); err != nil {
		return err
	}
	if err := tensor.MaxPool(&e.x, &e.t1, tensor.PoolParams{KH: 3, KW: 3, StrideH: 2, StrideW: 2}); err != nil {
		return err
	}
	for i := range n.blocks {
		if err := e.residual(&n.blocks[i]); err != nil {
			return fmt.Errorf("block %s: %w", blockNames[i], err)
		}
	}
	if err := tensor.Mean(&e.t1, &e.x, []int{1, 2}, false); err != nil {
		return err
	}
	return tensor.MatMul(&e.ws, &e.desc, &e.t1, n.fc, false, false, nil, noAct)
}

// residual runs one block on e.x in place: conv-relu, conv, add the
// shortcut, relu. A down block convolves with stride 2 (valid) and its
// shortcut is a 2×2 average pool zero-padded to the new channel count;
// when the two disagree in size the conv branch gains a zero bottom row
// and right column.
func (e *Embedder) residual(r *residualLayer) error {
	h, w := e.x.Shape[1], e.x.Shape[2]
	p1 := tensor.ConvParams{Act: relu}
	if r.down {
		p1.StrideH, p1.StrideW = 2, 2
	} else {
		p1.Pad = tensor.SamePadding(h, w, 3, 3, 1, 1, 1, 1)
	}
	if err := tensor.Conv2D(&e.ws, &e.t1, &e.x, r.conv1.filter, r.conv1.bias, p1); err != nil {
		return err
	}
	oh, ow := e.t1.Shape[1], e.t1.Shape[2]
	p2 := tensor.ConvParams{Pad: tensor.SamePadding(oh, ow, 3, 3, 1, 1, 1, 1)}
	if err := tensor.Conv2D(&e.ws, &e.t2, &e.t1, r.conv2.filter, r.conv2.bias, p2); err != nil {
		return err
	}
	branch, short := &e.t2, &e.x
	if r.down {
		if err := tensor.AvgPool(&e.t3, &e.x, tensor.PoolParams{KH: 2, KW: 2, StrideH: 2, StrideW: 2}); err != nil {
			return err
		}
		if e.t3.Shape[1] != oh || e.t3.Shape[2] != ow {
			if err := tensor.Pad(&e.t1, &e.t2, [][2]int{{0, 0}, {0, 1}, {0, 1}, {0, 0}}, 0); err != nil {
				return err
			}
			branch = &e.t1
		}
		extra := branch.Shape[3] - e.t3.Shape[3]
		if err := tensor.Pad(&e.t4, &e.t3, [][2]int{{0, 0}, {0, 0}, {0, 0}, {0, extra}}, 0); err != nil {
			return err
		}
		short = &e.t4
	}
	if err := tensor.Binary(&e.t3, branch, short, tensor.OpAdd); err != nil {
		return err
	}
	return tensor.Apply(&e.x, &e.t3, relu)
}
