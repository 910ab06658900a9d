package tensor

import (
	"fmt"
	"sync"
)

// Padding is explicit zero padding of the spatial dimensions.
type Padding struct{ Top, Bottom, Left, Right int }

// SamePadding is TensorFlow's "SAME": output size ceil(in/stride), the
// extra row or column going to the bottom/right.
func SamePadding(inH, inW, kH, kW, strideH, strideW, dilH, dilW int) Padding {
	ph := samePad(inH, kH, strideH, dilH)
	pw := samePad(inW, kW, strideW, dilW)
	return Padding{Top: ph / 2, Bottom: ph - ph/2, Left: pw / 2, Right: pw - pw/2}
}

func samePad(in, k, stride, dil int) int {
	out := (in + stride - 1) / stride
	return max((out-1)*stride+(k-1)*dil+1-in, 0)
}

// ConvParams describes a 2-D convolution (dilation 0 means 1).
type ConvParams struct {
	StrideH, StrideW int
	DilH, DilW       int
	Pad              Padding
	Act              Activation
	// Residual, if set, is added element-wise after the bias and before
	// the activation (a residual block's shortcut fused into its last
	// convolution); it must have the output's shape.
	Residual *Tensor
}

func (p ConvParams) norm() ConvParams {
	p.StrideH, p.StrideW = max(p.StrideH, 1), max(p.StrideW, 1)
	p.DilH, p.DilW = max(p.DilH, 1), max(p.DilW, 1)
	return p
}

func (p ConvParams) outSize(h, w, kh, kw int) (int, int, error) {
	oh := (h+p.Pad.Top+p.Pad.Bottom-(kh-1)*p.DilH-1)/p.StrideH + 1
	ow := (w+p.Pad.Left+p.Pad.Right-(kw-1)*p.DilW-1)/p.StrideW + 1
	if oh <= 0 || ow <= 0 || p.Pad.Top < 0 || p.Pad.Bottom < 0 || p.Pad.Left < 0 || p.Pad.Right < 0 {
		return 0, 0, fmt.Errorf("kernel %dx%d does not fit input %dx%d with %+v", kh, kw, h, w, p)
	}
	return oh, ow, nil
}

// Workspace holds scratch memory reused across operations. A Workspace must
// not be used by two goroutines at once; give each executor its own.
type Workspace struct {
	col []float32
	fma fmaBuf // packed gemm operand and edge scratch for the FMA kernel
	wg  sync.WaitGroup
}

func (ws *Workspace) scratch(n int) []float32 {
	if cap(ws.col) < n {
		ws.col = make([]float32, n)
	}
	return ws.col[:n]
}

// Conv2D writes conv(x, filter)+bias, then the activation, into dst.
// x is NHWC, filter is [kh, kw, in, out] (TensorFlow's HWIO), bias has one
// value per output channel or is nil. It lowers to im2col + gemm; a 1×1
// stride-1 unpadded convolution is a gemm on x directly.
func Conv2D(ws *Workspace, dst, x, filter *Tensor, bias []float32, p ConvParams) error {
	p = p.norm()
	n, h, w, cin, err := x.Dims4()
	if err != nil {
		return fmt.Errorf("conv2d input: %w", err)
	}
	if len(filter.Shape) != 4 || filter.Shape[2] != cin {
		return fmt.Errorf("conv2d: filter %v does not match input channels %d", filter.Shape, cin)
	}
	kh, kw, cout := filter.Shape[0], filter.Shape[1], filter.Shape[3]
	if bias != nil && len(bias) != cout {
		return fmt.Errorf("conv2d: %d biases for %d channels", len(bias), cout)
	}
	if err := p.Act.Check(cout); err != nil {
		return fmt.Errorf("conv2d: %w", err)
	}
	oh, ow, err := p.outSize(h, w, kh, kw)
	if err != nil {
		return fmt.Errorf("conv2d: %w", err)
	}
	if err := checkSize(n, oh, ow, cout); err != nil {
		return fmt.Errorf("conv2d: %w", err)
	}
	if err := checkSize(oh, ow, kh*kw*cin); err != nil {
		return fmt.Errorf("conv2d im2col: %w", err)
	}
	if r := p.Residual; r != nil && !sameShape(r.Shape, []int{n, oh, ow, cout}) {
		return fmt.Errorf("conv2d: residual %v for output [%d %d %d %d]: %w", r.Shape, n, oh, ow, cout, ErrResidual)
	}
	dst.Resize(n, oh, ow, cout)
	m, k := oh*ow, kh*kw*cin
	direct := kh == 1 && kw == 1 && p.StrideH == 1 && p.StrideW == 1 && p.Pad == (Padding{})
	for b := range n {
		out := dst.Data[b*m*cout : (b+1)*m*cout]
		img := x.Data[b*h*w*cin : (b+1)*h*w*cin]
		a := img
		if !direct {
			a = ws.scratch(m * k)
			im2col(a, img, h, w, cin, kh, kw, oh, ow, p)
		}
		parGemm(ws, m, cout, k, a, k, filter.Data, cout, filter.packed, out, cout)
		var res []float32
		if p.Residual != nil {
			res = p.Residual.Data[b*m*cout : (b+1)*m*cout]
		}
		p.Act.applyRows(out, bias, res, cout)
	}
	return nil
}

// im2col lays each output pixel's receptive field out as one row of col
// (kh·kw·cin values, zeros where the window leaves the padded image).
func im2col(col, img []float32, h, w, cin, kh, kw, oh, ow int, p ConvParams) {
	k := kh * kw * cin
	for oy := range oh {
		for ox := range ow {
			row := col[(oy*ow+ox)*k : (oy*ow+ox+1)*k]
			for ky := range kh {
				iy := oy*p.StrideH - p.Pad.Top + ky*p.DilH
				ix0 := ox*p.StrideW - p.Pad.Left
				if p.DilW == 1 && iy >= 0 && iy < h && ix0 >= 0 && ix0+kw <= w {
					// The window's row is contiguous in the image: one
					// copy instead of kw (first layers have 3 channels).
					copy(row[ky*kw*cin:(ky+1)*kw*cin], img[(iy*w+ix0)*cin:(iy*w+ix0+kw)*cin])
					continue
				}
				for kx := range kw {
					ix := ox*p.StrideW - p.Pad.Left + kx*p.DilW
					seg := row[(ky*kw+kx)*cin : (ky*kw+kx+1)*cin]
					if iy < 0 || iy >= h || ix < 0 || ix >= w {
						clear(seg)
						continue
					}
					copy(seg, img[(iy*w+ix)*cin:(iy*w+ix+1)*cin])
				}
			}
		}
	}
}

// DepthwiseConv2D convolves each input channel with its own filters:
// filter is [kh, kw, in, multiplier], output channel = in·multiplier + m.
// Large layers are split by output rows across cores.
func DepthwiseConv2D(ws *Workspace, dst, x, filter *Tensor, bias []float32, p ConvParams) error {
	p = p.norm()
	n, h, w, cin, err := x.Dims4()
	if err != nil {
		return fmt.Errorf("depthwise conv input: %w", err)
	}
	if len(filter.Shape) != 4 || filter.Shape[2] != cin {
		return fmt.Errorf("depthwise conv: filter %v does not match input channels %d", filter.Shape, cin)
	}
	kh, kw, mult := filter.Shape[0], filter.Shape[1], filter.Shape[3]
	cout := cin * mult
	if bias != nil && len(bias) != cout {
		return fmt.Errorf("depthwise conv: %d biases for %d channels", len(bias), cout)
	}
	if err := p.Act.Check(cout); err != nil {
		return fmt.Errorf("depthwise conv: %w", err)
	}
	if p.Residual != nil {
		return fmt.Errorf("depthwise conv: %w", ErrResidual)
	}
	oh, ow, err := p.outSize(h, w, kh, kw)
	if err != nil {
		return fmt.Errorf("depthwise conv: %w", err)
	}
	if err := checkSize(n, oh, ow, cout); err != nil {
		return fmt.Errorf("depthwise conv: %w", err)
	}
	dst.Resize(n, oh, ow, cout)
	for b := range n {
		t := dwTask{
			img: x.Data[b*h*w*cin : (b+1)*h*w*cin], out: dst.Data[b*oh*ow*cout : (b+1)*oh*ow*cout],
			filter: filter.Data, bias: bias, act: p.Act, p: p,
			h: h, w: w, cin: cin, kh: kh, kw: kw, mult: mult, ow: ow,
		}
		parRows(&ws.wg, task{dw: t}, oh, oh*ow*cout*kh*kw)
	}
	return nil
}

// dwTask is a depthwise convolution over a band of output rows.
type dwTask struct {
	img, out, filter, bias []float32
	act                    Activation
	p                      ConvParams
	h, w, cin, kh, kw      int
	mult, ow               int
}

func (t *dwTask) rows(oy0, oy1 int) {
	cout := t.cin * t.mult
	rowLen := t.ow * cout
	band := t.out[oy0*rowLen : oy1*rowLen]
	clear(band)
	rowFMA := haveFMA && t.mult == 1 && cout%8 == 0
	for oy := oy0; oy < oy1; oy++ {
		orow := t.out[oy*rowLen : (oy+1)*rowLen]
		for ky := range t.kh {
			iy := oy*t.p.StrideH - t.p.Pad.Top + ky*t.p.DilH
			if iy < 0 || iy >= t.h {
				continue
			}
			irow := t.img[iy*t.w*t.cin : (iy+1)*t.w*t.cin]
			for kx := range t.kw {
				f := t.filter[(ky*t.kw+kx)*cout : (ky*t.kw+kx+1)*cout]
				// Output columns whose input column lies inside the image.
				off := kx*t.p.DilW - t.p.Pad.Left
				lo := 0
				if off < 0 {
					lo = (-off + t.p.StrideW - 1) / t.p.StrideW
				}
				hi := min(t.ow, (t.w-1-off)/t.p.StrideW+1)
				if t.w-1-off < 0 {
					hi = 0
				}
				if rowFMA && hi > lo {
					// The whole row of this tap in one call: the
					// per-pixel call cost dominated at 16–128 channels.
					dwRowFMA(&orow[lo*cout], &irow[(lo*t.p.StrideW+off)*t.cin], &f[0], hi-lo, cout, t.p.StrideW*t.cin)
					continue
				}
				for ox := lo; ox < hi; ox++ {
					ix := ox*t.p.StrideW + off
					o := orow[ox*cout : (ox+1)*cout]
					in := irow[ix*t.cin : (ix+1)*t.cin]
					if t.mult == 1 {
						madd(o, in, f)
						continue
					}
					for c, v := range in {
						for q := range t.mult {
							o[c*t.mult+q] += v * f[c*t.mult+q]
						}
					}
				}
			}
		}
	}
	t.act.applyRows(band, t.bias, nil, cout)
}

// madd sets o[i] += a[i]·b[i]: eight lanes at a time with AVX2/FMA when
// available, the rest unrolled by four for instruction-level parallelism
// (the compiler does not vectorise).
func madd(o, a, b []float32) {
	a, b = a[:len(o)], b[:len(o)]
	i := 0
	if haveFMA && len(o) >= 8 {
		maddFMA(&o[0], &a[0], &b[0], len(o))
		i = len(o) &^ 7
	}
	for ; i+4 <= len(o); i += 4 {
		o[i] += a[i] * b[i]
		o[i+1] += a[i+1] * b[i+1]
		o[i+2] += a[i+2] * b[i+2]
		o[i+3] += a[i+3] * b[i+3]
	}
	for ; i < len(o); i++ {
		o[i] += a[i] * b[i]
	}
}
