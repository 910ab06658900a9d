package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func refGemm(m, n, k int, a, b []float32) []float32 {
	c := make([]float32, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				s += float64(a[i*k+p]) * float64(b[p*n+j])
			}
			c[i*n+j] = float32(s)
		}
	}
	return c
}

func TestGemmMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var ws Workspace
	for _, s := range [][3]int{{1, 1, 1}, {3, 5, 7}, {4, 4, 4}, {9, 130, 300}, {257, 129, 513}, {64, 300, 70}} {
		m, n, k := s[0], s[1], s[2]
		a, b := randTensor(r, m, k).Data, randTensor(r, k, n).Data
		want := FromData(refGemm(m, n, k, a, b), m, n)
		for _, par := range []bool{false, true} {
			c := New(m, n)
			for i := range c.Data {
				c.Data[i] = 42 // gemm must overwrite, not accumulate
			}
			if par {
				parGemm(&ws, m, n, k, a, k, b, n, nil, c.Data, n)
			} else {
				gemmGonum(m, n, k, a, k, b, n, c.Data, n)
			}
			assertClose(t, fmt.Sprintf("gemm %v parallel=%v (else gonum)", s, par), c, want, 1e-4)
		}
	}
}

func TestGemmFMAMatchesReference(t *testing.T) {
	if !haveFMA {
		t.Skip("no AVX2+FMA on this CPU: gemm uses gonum")
	}
	r := rand.New(rand.NewPCG(11, 11))
	for _, s := range [][3]int{{1, 1, 1}, {4, 16, 1}, {3, 5, 7}, {4, 16, 9}, {9, 33, 17}, {257, 129, 513}, {16384 / 16, 24, 75}, {5, 16, 0}} {
		m, n, k := s[0], s[1], s[2]
		a, b := randTensor(r, m, max(k, 1)).Data, randTensor(r, max(k, 1), n).Data
		c := New(m, n)
		for i := range c.Data {
			c.Data[i] = 42 // must be overwritten
		}
		gemmFMA(m, n, k, a, k, b, n, c.Data, n)
		assertClose(t, fmt.Sprintf("fma %v", s), c, FromData(refGemm(m, n, k, a, b), m, n), 1e-4)
	}
}
