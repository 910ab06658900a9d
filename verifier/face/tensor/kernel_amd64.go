package tensor

import "golang.org/x/sys/cpu"

// haveFMA gates the assembly kernel; without AVX2+FMA gemm falls back to
// gonum's Sgemm.
var haveFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kern4x16(k int, a *float32, lda int, b *float32, c *float32, ldc int)

//go:noescape
func maddFMA(o, a, b *float32, n int)

//go:noescape
func epiFMA(o, bias, res, alpha *float32, rows, c, mode int)

//go:noescape
func dwRowFMA(o, in, f *float32, n, c, step int)

//go:noescape
func maxFMA(o, a *float32, n int)
