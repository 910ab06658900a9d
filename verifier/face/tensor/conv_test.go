package tensor

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

var convCases = []struct {
	n, h, w, cin, kh, kw, cout, stride, dil int
	same                                    bool
	pad                                     Padding
}{
	{1, 7, 9, 3, 3, 3, 5, 1, 1, true, Padding{}},
	{2, 8, 8, 4, 3, 3, 6, 2, 1, true, Padding{}},
	{1, 9, 7, 2, 5, 5, 3, 2, 1, false, Padding{2, 1, 0, 2}},
	{1, 6, 6, 8, 1, 1, 16, 1, 1, false, Padding{}},
	{1, 6, 6, 8, 1, 1, 7, 2, 1, false, Padding{}},
	{1, 10, 10, 3, 3, 3, 4, 1, 2, true, Padding{}},
	{1, 5, 5, 3, 5, 5, 2, 1, 1, false, Padding{}},
	// channels a multiple of 8: the depthwise row kernel, strided and padded
	{1, 9, 9, 16, 3, 3, 8, 2, 1, true, Padding{}},
	{1, 7, 8, 24, 3, 3, 8, 1, 1, false, Padding{1, 1, 1, 1}},
	// large enough to take the parallel gemm path and cross k/n blocks
	{1, 24, 24, 32, 3, 3, 140, 1, 1, true, Padding{}},
}

var acts = []Activation{
	{Kind: ActNone}, {Kind: ActRelu}, {Kind: ActRelu6}, {Kind: ActLeakyRelu, Leak: 0.2},
	{Kind: ActSigmoid}, {Kind: ActElu},
}

func TestConv2DMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ws := &Workspace{}
	dst := &Tensor{}
	for i, c := range convCases {
		x := randTensor(r, c.n, c.h, c.w, c.cin)
		f := randTensor(r, c.kh, c.kw, c.cin, c.cout)
		bias := randTensor(r, c.cout).Data
		p := ConvParams{StrideH: c.stride, StrideW: c.stride, DilH: c.dil, DilW: c.dil, Pad: c.pad}
		if c.same {
			p.Pad = SamePadding(c.h, c.w, c.kh, c.kw, c.stride, c.stride, c.dil, c.dil)
		}
		for j, act := range append(acts, Activation{Kind: ActPrelu, Alpha: randTensor(r, c.cout).Data}) {
			p.Act = act
			if err := Conv2D(ws, dst, x, f, bias, p); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			assertClose(t, fmt.Sprintf("conv case %d act %d", i, j), dst, refConv(x, f, bias, p, false), 1e-4)
			// The same with a fused residual: act(conv + bias + residual).
			plain := p
			plain.Act = Activation{}
			want := refConv(x, f, bias, plain, false)
			res := randTensor(r, want.Shape...)
			if err := Binary(want, want, res, OpAdd); err != nil {
				t.Fatal(err)
			}
			if err := Apply(want, want, act); err != nil {
				t.Fatal(err)
			}
			p.Residual = res
			if err := Conv2D(ws, dst, x, f, bias, p); err != nil {
				t.Fatalf("case %d residual: %v", i, err)
			}
			p.Residual = nil
			assertClose(t, fmt.Sprintf("conv case %d act %d residual", i, j), dst, want, 1e-4)
		}
		if err := Conv2D(ws, dst, x, f, nil, ConvParams{StrideH: c.stride, StrideW: c.stride, Pad: p.Pad, DilH: c.dil, DilW: c.dil}); err != nil {
			t.Fatal(err)
		}
		assertClose(t, fmt.Sprintf("conv case %d no bias", i), dst, refConv(x, f, nil, ConvParams{StrideH: c.stride, StrideW: c.stride, Pad: p.Pad, DilH: c.dil, DilW: c.dil}, false), 1e-4)
		// A filter packed at load time gives the same result.
		PackFilter(f)
		p.Act = Activation{Kind: ActRelu}
		if err := Conv2D(ws, dst, x, f, bias, p); err != nil {
			t.Fatal(err)
		}
		assertClose(t, fmt.Sprintf("conv case %d packed filter", i), dst, refConv(x, f, bias, p, false), 1e-4)
	}
}

func TestDepthwiseMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dst := &Tensor{}
	for i, c := range convCases {
		for _, mult := range []int{1, 2} {
			x := randTensor(r, c.n, c.h, c.w, c.cin)
			f := randTensor(r, c.kh, c.kw, c.cin, mult)
			bias := randTensor(r, c.cin*mult).Data
			p := ConvParams{StrideH: c.stride, StrideW: c.stride, DilH: c.dil, DilW: c.dil, Pad: c.pad, Act: Activation{Kind: ActRelu}}
			if c.same {
				p.Pad = SamePadding(c.h, c.w, c.kh, c.kw, c.stride, c.stride, c.dil, c.dil)
			}
			if err := DepthwiseConv2D(&Workspace{}, dst, x, f, bias, p); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			assertClose(t, fmt.Sprintf("depthwise case %d mult %d", i, mult), dst, refConv(x, f, bias, p, true), 1e-4)
		}
	}
}

func TestSamePaddingMatchesTensorFlow(t *testing.T) {
	// TF: out = ceil(in/stride); the odd padding unit goes bottom/right.
	for _, c := range []struct {
		in, k, s, d int
		want        [2]int
	}{
		{256, 5, 2, 1, [2]int{1, 2}}, {128, 3, 1, 1, [2]int{1, 1}}, {7, 2, 2, 1, [2]int{0, 1}},
		{8, 2, 2, 1, [2]int{0, 0}}, {10, 3, 1, 2, [2]int{2, 2}}, {3, 1, 1, 1, [2]int{0, 0}},
	} {
		p := SamePadding(c.in, c.in, c.k, c.k, c.s, c.s, c.d, c.d)
		if p.Top != c.want[0] || p.Bottom != c.want[1] || p.Left != c.want[0] || p.Right != c.want[1] {
			t.Errorf("SamePadding(in %d, k %d, s %d, d %d) = %+v, want %v", c.in, c.k, c.s, c.d, p, c.want)
		}
	}
}

func TestConvRejectsBadShapes(t *testing.T) {
	ws, dst := &Workspace{}, &Tensor{}
	x := New(1, 4, 4, 3)
	for name, err := range map[string]error{
		"rank":     Conv2D(ws, dst, New(4, 4, 3), New(3, 3, 3, 1), nil, ConvParams{}),
		"channels": Conv2D(ws, dst, x, New(3, 3, 2, 1), nil, ConvParams{}),
		"bias":     Conv2D(ws, dst, x, New(3, 3, 3, 2), []float32{1}, ConvParams{}),
		"too big":  Conv2D(ws, dst, x, New(5, 5, 3, 1), nil, ConvParams{}),
		"prelu":    Conv2D(ws, dst, x, New(1, 1, 3, 4), nil, ConvParams{Act: Activation{Kind: ActPrelu, Alpha: []float32{1, 2}}}),
		"dw chans": DepthwiseConv2D(ws, dst, x, New(3, 3, 2, 1), nil, ConvParams{}),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for name, err := range map[string]error{
		"residual shape": Conv2D(ws, dst, x, New(1, 1, 3, 4), nil, ConvParams{Residual: New(1, 4, 4, 1)}),
		"dw residual":    DepthwiseConv2D(ws, dst, x, New(3, 3, 3, 1), nil, ConvParams{Residual: New(1, 4, 4, 3)}),
	} {
		if !errors.Is(err, ErrResidual) {
			t.Errorf("%s: %v, want ErrResidual", name, err)
		}
	}
}

func TestConvSteadyStateAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ws, dst := &Workspace{}, &Tensor{}
	x := randTensor(r, 1, 64, 64, 16)
	f := randTensor(r, 3, 3, 16, 32)
	p := ConvParams{Pad: SamePadding(64, 64, 3, 3, 1, 1, 1, 1), Act: Activation{Kind: ActRelu}}
	run := func() {
		if err := Conv2D(ws, dst, x, f, f.Data[:32], p); err != nil {
			t.Fatal(err)
		}
	}
	run() // warm up: buffers and workers
	if a := testing.AllocsPerRun(10, run); a != 0 {
		t.Fatalf("Conv2D allocates %v times per run in steady state", a)
	}
	dw := randTensor(r, 3, 3, 16, 1)
	if a := testing.AllocsPerRun(10, func() { _ = DepthwiseConv2D(ws, dst, x, dw, nil, p) }); a != 0 {
		t.Fatalf("DepthwiseConv2D allocates %v times per run", a)
	}
}

func TestMaddAllLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	for n := 0; n <= 41; n++ {
		o, a, b := randTensor(r, n).Data, randTensor(r, n).Data, randTensor(r, n).Data
		want := make([]float32, n)
		for i := range want {
			want[i] = o[i] + a[i]*b[i]
		}
		madd(o, a, b)
		for i := range want {
			if d := o[i] - want[i]; d > 1e-6 || d < -1e-6 {
				t.Fatalf("n=%d: o[%d] = %v, want %v", n, i, o[i], want[i])
			}
		}
	}
}
