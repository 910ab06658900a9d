package tensor

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemm sets c[m×n] = a[m×k]·b[k×n] for row-major matrices with leading
// dimensions lda, ldb, ldc. It is the engine's single hot loop: every
// convolution (via im2col) and matmul ends here.
//
// It runs on gonum's Sgemm, whose inner loop is an SSE axpy in assembly.
// Measured on this machine against our own pure-Go 4-row register-blocked
// kernel (k/n cache blocking), single core: 16384×24×75 5.2 vs 2.4 GFLOP/s,
// 1369×64×576 12.0 vs 3.9, 256×96×48 17.0 vs 4.1 — so gonum's is kept.
// We feed it tiles of gemmTile rows × gemmTile·3 columns: below four 64×64
// blocks gonum stays serial, so it never spawns goroutines (which would
// allocate); parGemm does the splitting across cores instead.
func gemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	impl := gonum.Implementation{}
	for i0 := 0; i0 < m; i0 += gemmTile {
		rows := min(gemmTile, m-i0)
		for j0 := 0; j0 < n; j0 += 3 * gemmTile {
			cols := min(3*gemmTile, n-j0)
			impl.Sgemm(blas.NoTrans, blas.NoTrans, rows, cols, k, 1,
				a[i0*lda:], lda, b[j0:], ldb, 0, c[i0*ldc+j0:], ldc)
		}
	}
}

// gemmTile matches gonum's internal block size (64).
const gemmTile = 64
