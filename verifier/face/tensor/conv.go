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
		parGemm(&ws.wg, m, cout, k, a, k, filter.Data, cout, out, cout)
		p.Act.applyRows(out, bias, cout)
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
func DepthwiseConv2D(dst, x, filter *Tensor, bias []float32, p ConvParams) error {
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
	oh, ow, err := p.outSize(h, w, kh, kw)
	if err != nil {
		return fmt.Errorf("depthwise conv: %w", err)
	}
	dst.Resize(n, oh, ow, cout)
	clear(dst.Data)
	for b := range n {
		img := x.Data[b*h*w*cin : (b+1)*h*w*cin]
		out := dst.Data[b*oh*ow*cout : (b+1)*oh*ow*cout]
		for oy := range oh {
			for ox := range ow {
				o := out[(oy*ow+ox)*cout : (oy*ow+ox+1)*cout]
				for ky := range kh {
					iy := oy*p.StrideH - p.Pad.Top + ky*p.DilH
					if iy < 0 || iy >= h {
						continue
					}
					for kx := range kw {
						ix := ox*p.StrideW - p.Pad.Left + kx*p.DilW
						if ix < 0 || ix >= w {
							continue
						}
						in := img[(iy*w+ix)*cin : (iy*w+ix+1)*cin]
						f := filter.Data[(ky*kw+kx)*cout : (ky*kw+kx+1)*cout]
						if mult == 1 {
							f, o := f[:len(in)], o[:len(in)]
							for c, v := range in {
								o[c] += v * f[c]
							}
							continue
						}
						for c, v := range in {
							for q := range mult {
								o[c*mult+q] += v * f[c*mult+q]
							}
						}
					}
				}
			}
		}
		p.Act.applyRows(out, bias, cout)
	}
	return nil
}
