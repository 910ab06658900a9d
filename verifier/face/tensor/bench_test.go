package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// gemmShapes are the m×n×k of real layers: blazeface's first conv (5×5×3 →
// 24 at 128²), a face-api ResNet 3×3×64 → 64 conv at 37², and a 1×1
// expansion at 16².
var gemmShapes = [][3]int{{16384, 24, 75}, {1369, 64, 576}, {256, 96, 48}, {4096, 48, 48}, {1024, 96, 96}}

// BenchmarkGemm measures, on real layer shapes, gonum's Sgemm and our FMA
// kernel side by side on one core, and parGemm (the kernel gemm picks,
// split across cores).
func BenchmarkGemm(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	var ws Workspace
	for _, s := range gemmShapes {
		m, n, k := s[0], s[1], s[2]
		a, bm, c := randTensor(r, m, k).Data, randTensor(r, k, n).Data, make([]float32, m*n)
		flops := float64(2 * m * n * k)
		b.Run(fmt.Sprintf("gonum/%dx%dx%d", m, n, k), func(b *testing.B) {
			for b.Loop() {
				gemmGonum(m, n, k, a, k, bm, n, c, n)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("fma/%dx%dx%d", m, n, k), func(b *testing.B) {
			if !haveFMA {
				b.Skip("no AVX2+FMA")
			}
			for b.Loop() {
				gemmFMA(m, n, k, a, k, bm, n, c, n)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("parallel/%dx%dx%d", m, n, k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parGemm(&ws, m, n, k, a, k, bm, n, nil, c, n)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkConv2D is a full convolution (im2col + parallel gemm + epilogue).
func BenchmarkConv2D(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	x, f := randTensor(r, 1, 74, 74, 32), randTensor(r, 3, 3, 32, 64)
	ws, dst := &Workspace{}, &Tensor{}
	p := ConvParams{Pad: SamePadding(74, 74, 3, 3, 1, 1, 1, 1), Act: Activation{Kind: ActRelu}}
	b.ReportAllocs()
	for b.Loop() {
		if err := Conv2D(ws, dst, x, f, f.Data[:64], p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*74*74*64*288)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkDepthwise(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	x, f := randTensor(r, 1, 64, 64, 48), randTensor(r, 3, 3, 48, 1)
	ws, dst := &Workspace{}, &Tensor{}
	p := ConvParams{Pad: SamePadding(64, 64, 3, 3, 1, 1, 1, 1)}
	b.ReportAllocs()
	for b.Loop() {
		if err := DepthwiseConv2D(ws, dst, x, f, nil, p); err != nil {
			b.Fatal(err)
		}
	}
}
