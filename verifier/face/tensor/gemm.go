package tensor

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// gemm sets c[m×n] = a[m×k]·b[k×n] for row-major matrices with leading
// dimensions lda, ldb, ldc. It is the engine's single hot loop: every
// convolution (via im2col) and matmul ends here.
//
// On CPUs with AVX2+FMA it runs our 4×16 register-blocked assembly kernel
// (gemmFMA); elsewhere gonum's Sgemm. Measured single-core on this
// machine (GFLOP/s, ours-FMA / gonum / our earlier pure-Go 4-row kernel):
// 16384×24×75 44 / 7.7 / 2.4, 1369×64×576 75 / 13 / 3.9, 256×96×48
// 87 / 17 / 4.1, 4096×48×48 103 / 8.1 (BenchmarkGemm prints the first two).
func gemm(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if haveFMA {
		gemmFMA(m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	gemmGonum(m, n, k, a, lda, b, ldb, c, ldc)
}

// gemmGonum feeds gonum tiles of gemmTile rows × gemmTile·3 columns: below
// four 64×64 blocks gonum stays serial, so it never spawns goroutines
// (which would allocate); parGemm does the splitting across cores.
func gemmGonum(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
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
