package tensor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refBinary evaluates op by mapping each output index to input indices.
func refBinary(x, y *Tensor, out []int, op BinOp) *Tensor {
	dst := New(out...)
	idx := make([]int, len(out))
	for o := range dst.Data {
		rem := o
		for i := len(out) - 1; i >= 0; i-- {
			idx[i] = rem % out[i]
			rem /= out[i]
		}
		dst.Data[o] = scalar(op, x.Data[bcastOffset(x.Shape, idx)], y.Data[bcastOffset(y.Shape, idx)])
	}
	return dst
}

func bcastOffset(shape, idx []int) int {
	off := 0
	lead := len(idx) - len(shape)
	for i, d := range shape {
		v := idx[lead+i]
		if d == 1 {
			v = 0
		}
		off = off*d + v
	}
	return off
}

func TestBinaryBroadcastsLikeNumPy(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	cases := []struct{ x, y, out []int }{
		{[]int{2, 3, 4}, []int{2, 3, 4}, []int{2, 3, 4}},
		{[]int{1, 4, 4, 8}, []int{8}, []int{1, 4, 4, 8}},
		{[]int{1, 4, 4, 8}, []int{1, 1, 1, 8}, []int{1, 4, 4, 8}},
		{[]int{1, 4, 4, 8}, []int{}, []int{1, 4, 4, 8}},
		{[]int{3, 1}, []int{1, 5}, []int{3, 5}},
		{[]int{8}, []int{2, 3, 8}, []int{2, 3, 8}},
		{[]int{2, 3, 4}, []int{3, 1}, []int{2, 3, 4}},
	}
	for _, c := range cases {
		for op := OpAdd; op <= OpMax; op++ {
			x, y := randTensor(r, c.x...), randTensor(r, c.y...)
			dst := &Tensor{}
			if err := Binary(dst, x, y, op); err != nil {
				t.Fatalf("%v %v %v: %v", op, c.x, c.y, err)
			}
			assertClose(t, fmt.Sprintf("%v %v %v", op, c.x, c.y), dst, refBinary(x, y, c.out, op), 1e-6)
		}
	}
	if err := Binary(&Tensor{}, New(2, 3), New(4), OpAdd); err == nil {
		t.Fatal("incompatible shapes accepted")
	}
}

func TestPoolMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	// 3 channels: the scalar loop; 16: the eight-lane max.
	for _, ch := range []int{3, 16} {
		x := randTensor(r, 2, 7, 6, ch)
		for _, p := range []PoolParams{
			{KH: 2, KW: 2, StrideH: 2, StrideW: 2},
			{KH: 3, KW: 3, StrideH: 2, StrideW: 2, Pad: SamePadding(7, 6, 3, 3, 2, 2, 1, 1)},
			{KH: 3, KW: 2, StrideH: 1, StrideW: 1, Pad: Padding{1, 1, 0, 1}},
		} {
			cp := ConvParams{StrideH: p.StrideH, StrideW: p.StrideW, DilH: 1, DilW: 1, Pad: p.Pad}
			oh, ow, _ := cp.outSize(7, 6, p.KH, p.KW)
			wantMax, wantAvg := New(2, oh, ow, ch), New(2, oh, ow, ch)
			for b := range 2 {
				for oy := range oh {
					for ox := range ow {
						for c := range ch {
							m, s, cnt := float32(math.Inf(-1)), float32(0), 0
							for ky := range p.KH {
								for kx := range p.KW {
									iy, ix := oy*p.StrideH-p.Pad.Top+ky, ox*p.StrideW-p.Pad.Left+kx
									if iy >= 0 && iy < 7 && ix >= 0 && ix < 6 {
										v := at4(x, b, iy, ix, c)
										m, s, cnt = max(m, v), s+v, cnt+1
									}
								}
							}
							i := ((b*oh+oy)*ow+ox)*ch + c
							wantMax.Data[i], wantAvg.Data[i] = m, s/float32(cnt)
						}
					}
				}
			}
			got := &Tensor{}
			if err := MaxPool(got, x, p); err != nil {
				t.Fatal(err)
			}
			assertClose(t, fmt.Sprintf("maxpool %d channels %+v", ch, p), got, wantMax, 0)
			if err := AvgPool(got, x, p); err != nil {
				t.Fatal(err)
			}
			assertClose(t, fmt.Sprintf("avgpool %d channels %+v", ch, p), got, wantAvg, 1e-6)
		}
	}
}

func TestPadMeanConcat(t *testing.T) {
	x := FromData([]float32{1, 2, 3, 4, 5, 6}, 1, 2, 3)
	got := &Tensor{}
	if err := Pad(got, x, [][2]int{{0, 0}, {1, 0}, {0, 2}}, -1); err != nil {
		t.Fatal(err)
	}
	want := FromData([]float32{
		-1, -1, -1, -1, -1,
		1, 2, 3, -1, -1,
		4, 5, 6, -1, -1}, 1, 3, 5)
	assertClose(t, "pad", got, want, 0)

	if err := Mean(got, x, []int{-1}, false); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "mean last", got, FromData([]float32{2, 5}, 1, 2), 1e-6)
	if err := Mean(got, x, []int{1}, true); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "mean axis1 keep", got, FromData([]float32{2.5, 3.5, 4.5}, 1, 1, 3), 1e-6)
	if err := Mean(got, x, []int{3}, true); err == nil {
		t.Fatal("mean accepted an out-of-range axis")
	}

	y := FromData([]float32{7, 8}, 1, 2, 1)
	if err := Concat(got, []*Tensor{x, y}, -1); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "concat", got, FromData([]float32{1, 2, 3, 7, 4, 5, 6, 8}, 1, 2, 4), 0)
	if err := Concat(got, []*Tensor{x, New(1, 3, 1)}, 2); err == nil {
		t.Fatal("concat accepted mismatched shapes")
	}
}

func TestMatMulTransposesAndFuses(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	a, b := randTensor(r, 3, 5), randTensor(r, 5, 4)
	bias := randTensor(r, 4).Data
	want := FromData(refGemm(3, 4, 5, a.Data, b.Data), 3, 4)
	for i := range want.Data {
		want.Data[i] = max(want.Data[i]+bias[i%4], 0)
	}
	at, bt := New(5, 3), New(4, 5)
	transpose(at.Data, a.Data, 3, 5)
	transpose(bt.Data, b.Data, 5, 4)
	ws, got := &Workspace{}, &Tensor{}
	relu := Activation{Kind: ActRelu}
	for _, c := range []struct {
		a, b   *Tensor
		ta, tb bool
	}{{a, b, false, false}, {at, b, true, false}, {a, bt, false, true}, {at, bt, true, true}} {
		if err := MatMul(ws, got, c.a, c.b, c.ta, c.tb, bias, relu); err != nil {
			t.Fatal(err)
		}
		assertClose(t, fmt.Sprintf("matmul ta=%v tb=%v", c.ta, c.tb), got, want, 1e-5)
	}
	if err := MatMul(ws, got, a, a, false, false, nil, relu); err == nil {
		t.Fatal("matmul accepted mismatched inner dimensions")
	}
}

func TestSoftmaxAndApply(t *testing.T) {
	x := FromData([]float32{1, 2, 3, 1000, 1000, 1000}, 2, 3)
	got := &Tensor{}
	Softmax(got, x)
	e := []float64{math.Exp(-2), math.Exp(-1), 1}
	s := e[0] + e[1] + e[2]
	want := FromData([]float32{float32(e[0] / s), float32(e[1] / s), float32(e[2] / s), 1. / 3, 1. / 3, 1. / 3}, 2, 3)
	assertClose(t, "softmax", got, want, 1e-6)

	y := FromData([]float32{-2, 3, -4, 5}, 2, 2)
	if err := Apply(got, y, Activation{Kind: ActPrelu, Alpha: []float32{0.5, 0.25}}); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "prelu", got, FromData([]float32{-1, 3, -2, 5}, 2, 2), 0)
	if err := Apply(got, y, Activation{Kind: ActPrelu, Alpha: []float32{0.1}}); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "prelu, one alpha", got, FromData([]float32{-0.2, 3, -0.4, 5}, 2, 2), 1e-7)
}

func TestResizeBilinearMatchesTensorFlowLegacy(t *testing.T) {
	// 2×2 → 4×4 with TF's legacy sampling: source = dst·0.5, so rows and
	// columns 0,1 interpolate and 2,3 clamp to the last pixel.
	x := FromData([]float32{0, 10, 20, 30}, 1, 2, 2, 1)
	got := &Tensor{}
	if err := ResizeBilinear(got, x, 4, 4); err != nil {
		t.Fatal(err)
	}
	want := FromData([]float32{
		0, 5, 10, 10,
		10, 15, 20, 20,
		20, 25, 30, 30,
		20, 25, 30, 30}, 1, 4, 4, 1)
	assertClose(t, "upsample", got, want, 1e-6)
	// 4×4 → 2×2 samples every other pixel exactly.
	if err := ResizeBilinear(got, want, 2, 2); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "downsample", got, FromData([]float32{0, 10, 20, 30}, 1, 2, 2, 1), 1e-6)
	if err := ResizeBilinear(got, x, 0, 3); err == nil {
		t.Fatal("accepted an empty target")
	}
}

func TestCropAndResizeMatchesTensorFlow(t *testing.T) {
	// 3×3 ramp image, value = 10·y + x.
	x := New(1, 3, 3, 1)
	for y := range 3 {
		for xx := range 3 {
			x.Data[y*3+xx] = float32(10*y + xx)
		}
	}
	got := &Tensor{}
	// The whole image onto 5×5: corners exact, midpoints interpolated.
	if err := CropAndResize(got, x, 0, 0, 1, 1, 5, 5, -1); err != nil {
		t.Fatal(err)
	}
	for oy := range 5 {
		for ox := range 5 {
			want := float32(10*oy)/2 + float32(ox)/2
			if g := got.Data[oy*5+ox]; math.Abs(float64(g-want)) > 1e-5 {
				t.Fatalf("(%d,%d) = %v, want %v", oy, ox, g, want)
			}
		}
	}
	// A box hanging off the left/top edge extrapolates there.
	if err := CropAndResize(got, x, -0.5, -0.5, 0.5, 0.5, 3, 3, -1); err != nil {
		t.Fatal(err)
	}
	want := FromData([]float32{-1, -1, -1, -1, 0, 1, -1, 10, 11}, 1, 3, 3, 1) // samples at -1, 0, 1
	assertClose(t, "off-edge crop", got, want, 1e-6)
	if err := CropAndResize(got, x, math.NaN(), 0, 1, 1, 2, 2, 0); err == nil {
		t.Fatal("accepted a NaN box")
	}
}

func TestWarpAffine(t *testing.T) {
	x := New(1, 3, 3, 1)
	for i := range x.Data {
		x.Data[i] = float32(i) // value = 3·y + x
	}
	got := &Tensor{}
	// Identity reproduces the image.
	if err := WarpAffine(got, x, [6]float64{1, 0, 0, 0, 1, 0}, 3, 3); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "identity", got, x, 0)
	// Transpose (u↔v) with a half-pixel shift in x interpolates.
	if err := WarpAffine(got, x, [6]float64{0, 1, 0.5, 1, 0, 0}, 2, 2); err != nil {
		t.Fatal(err)
	}
	// (u,v)=(0,0) → src (0.5, 0): 0.5; (1,0) → (0.5, 1): 3.5;
	// (0,1) → (1.5, 0): 1.5; (1,1) → (1.5, 1): 4.5.
	assertClose(t, "transpose", got, FromData([]float32{0.5, 3.5, 1.5, 4.5}, 1, 2, 2, 1), 1e-6)
	// Entirely outside: zeros.
	if err := WarpAffine(got, x, [6]float64{1, 0, 10, 0, 1, 10}, 2, 2); err != nil {
		t.Fatal(err)
	}
	assertClose(t, "outside", got, New(1, 2, 2, 1), 0)
	if err := WarpAffine(got, x, [6]float64{math.Inf(1)}, 2, 2); err == nil {
		t.Fatal("accepted a non-finite matrix")
	}
}

func TestOperationsRefuseHugeResults(t *testing.T) {
	x := New(1, 4, 4, 2)
	got, ws := &Tensor{}, &Workspace{}
	for name, err := range map[string]error{
		"pad":       Pad(got, x, [][2]int{{0, 0}, {1 << 20, 1 << 20}, {1 << 20, 0}, {0, 0}}, 0),
		"resize":    ResizeBilinear(got, x, 1<<16, 1<<16),
		"crop":      CropAndResize(got, x, 0, 0, 1, 1, 1<<16, 1<<16, 0),
		"warp":      WarpAffine(got, x, [6]float64{1, 0, 0, 0, 1, 0}, 1<<16, 1<<16),
		"broadcast": Binary(got, New(1<<14, 1), New(1, 1<<14), OpAdd),
		"conv":      Conv2D(ws, got, x, New(1, 1, 2, 1), nil, ConvParams{Pad: Padding{1 << 14, 1 << 14, 1 << 14, 1 << 14}}),
	} {
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %v, want ErrTooLarge", name, err)
		}
	}
}
