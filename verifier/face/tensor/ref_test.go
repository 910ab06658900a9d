package tensor

// Naive reference implementations: straight from the definitions, with no
// blocking, im2col or broadcasting tricks, so the fast paths are checked
// against code simple enough to trust by reading.

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randTensor(r *rand.Rand, shape ...int) *Tensor {
	t := New(shape...)
	for i := range t.Data {
		t.Data[i] = r.Float32()*2 - 1
	}
	return t
}

func at4(t *Tensor, n, y, x, c int) float32 {
	return t.Data[((n*t.Shape[1]+y)*t.Shape[2]+x)*t.Shape[3]+c]
}

func refAct(v float32, a Activation, c int) float32 {
	switch a.Kind {
	case ActRelu:
		return max(v, 0)
	case ActRelu6:
		return min(max(v, 0), 6)
	case ActPrelu:
		if v < 0 {
			return v * a.Alpha[c%len(a.Alpha)]
		}
	case ActLeakyRelu:
		if v < 0 {
			return v * a.Leak
		}
	case ActSigmoid:
		return float32(1 / (1 + math.Exp(-float64(v))))
	case ActElu:
		if v < 0 {
			return float32(math.Exp(float64(v)) - 1)
		}
	}
	return v
}

// refConv computes a convolution (depthwise when depthwise is set) one
// output value at a time.
func refConv(x, f *Tensor, bias []float32, p ConvParams, depthwise bool) *Tensor {
	p = p.norm()
	n, h, w, cin := x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3]
	kh, kw := f.Shape[0], f.Shape[1]
	cout := f.Shape[3]
	if depthwise {
		cout = cin * f.Shape[3]
	}
	oh := (h+p.Pad.Top+p.Pad.Bottom-(kh-1)*p.DilH-1)/p.StrideH + 1
	ow := (w+p.Pad.Left+p.Pad.Right-(kw-1)*p.DilW-1)/p.StrideW + 1
	out := New(n, oh, ow, cout)
	i := 0
	for b := range n {
		for oy := range oh {
			for ox := range ow {
				for co := range cout {
					var s float64
					for ky := range kh {
						for kx := range kw {
							iy := oy*p.StrideH - p.Pad.Top + ky*p.DilH
							ix := ox*p.StrideW - p.Pad.Left + kx*p.DilW
							if iy < 0 || iy >= h || ix < 0 || ix >= w {
								continue
							}
							if depthwise {
								mult := f.Shape[3]
								ci, q := co/mult, co%mult
								s += float64(at4(x, b, iy, ix, ci)) * float64(at4(f, ky, kx, ci, q))
								continue
							}
							for ci := range cin {
								s += float64(at4(x, b, iy, ix, ci)) * float64(at4(f, ky, kx, ci, co))
							}
						}
					}
					if bias != nil {
						s += float64(bias[co])
					}
					out.Data[i] = refAct(float32(s), p.Act, co)
					i++
				}
			}
		}
	}
	return out
}

func assertClose(t *testing.T, what string, got, want *Tensor, tol float64) {
	t.Helper()
	if !sameShape(got.Shape, want.Shape) {
		t.Fatalf("%s: shape %v, want %v", what, got.Shape, want.Shape)
	}
	for i := range want.Data {
		g, w := float64(got.Data[i]), float64(want.Data[i])
		if math.Abs(g-w) > tol*(1+math.Abs(w)) || math.IsNaN(g) != math.IsNaN(w) {
			t.Fatalf("%s: element %d = %v, want %v", what, i, g, w)
		}
	}
}
