package tensor

import (
	"fmt"
	"math"
)

// PoolParams describes a max or average pooling window.
type PoolParams struct {
	KH, KW, StrideH, StrideW int
	Pad                      Padding
}

// MaxPool takes the maximum over each window; padding never wins (it is
// -Inf, as in TensorFlow).
func MaxPool(dst, x *Tensor, p PoolParams) error { return pool(dst, x, p, true) }

// AvgPool averages each window over the in-image elements only, as
// TensorFlow's SAME average pooling does.
func AvgPool(dst, x *Tensor, p PoolParams) error { return pool(dst, x, p, false) }

func pool(dst, x *Tensor, p PoolParams, isMax bool) error {
	n, h, w, c, err := x.Dims4()
	if err != nil {
		return fmt.Errorf("pool input: %w", err)
	}
	if p.KH < 1 || p.KW < 1 || p.StrideH < 1 || p.StrideW < 1 {
		return fmt.Errorf("pool: bad window %+v", p)
	}
	cp := ConvParams{StrideH: p.StrideH, StrideW: p.StrideW, DilH: 1, DilW: 1, Pad: p.Pad}
	oh, ow, err := cp.outSize(h, w, p.KH, p.KW)
	if err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	if err := checkSize(n, oh, ow, c); err != nil {
		return fmt.Errorf("pool: %w", err)
	}
	dst.Resize(n, oh, ow, c)
	// Eight lanes at a time where the channels allow (the scalar max,
	// which must order NaNs and signed zeros, costs several instructions;
	// VMAXPS keeps the running maximum when an input is NaN, where Go's
	// max would propagate it — no finite input is affected).
	vmax := haveFMA && c%8 == 0 && c > 0
	for b := range n {
		img := x.Data[b*h*w*c : (b+1)*h*w*c]
		for oy := range oh {
			y0, y1 := max(oy*p.StrideH-p.Pad.Top, 0), min(oy*p.StrideH-p.Pad.Top+p.KH, h)
			for ox := range ow {
				x0, x1 := max(ox*p.StrideW-p.Pad.Left, 0), min(ox*p.StrideW-p.Pad.Left+p.KW, w)
				o := dst.Data[((b*oh+oy)*ow+ox)*c : ((b*oh+oy)*ow+ox+1)*c]
				init := float32(0)
				if isMax {
					init = float32(math.Inf(-1))
				}
				for i := range o {
					o[i] = init
				}
				for iy := y0; iy < y1; iy++ {
					for ix := x0; ix < x1; ix++ {
						in := img[(iy*w+ix)*c : (iy*w+ix+1)*c]
						in = in[:len(o)]
						if isMax && vmax {
							maxFMA(&o[0], &in[0], len(o))
							continue
						}
						if isMax {
							for i, v := range in {
								o[i] = max(o[i], v)
							}
						} else {
							for i, v := range in {
								o[i] += v
							}
						}
					}
				}
				if cnt := (y1 - y0) * (x1 - x0); !isMax && cnt > 0 {
					inv := 1 / float32(cnt)
					for i := range o {
						o[i] *= inv
					}
				}
			}
		}
	}
	return nil
}
