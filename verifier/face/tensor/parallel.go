package tensor

import (
	"runtime"
	"sync"
)

// parallelFlops is the work (m·n·k) above which a gemm is split across
// cores; below it the hand-off costs more than it saves.
const parallelFlops = 1 << 22

// gemmTask is one horizontal band of a gemm. It travels by value over a
// channel to long-lived workers, so splitting work allocates nothing.
type gemmTask struct {
	m, n, k       int
	a, b, c       []float32
	lda, ldb, ldc int
	done          *sync.WaitGroup
}

var (
	workersOnce sync.Once
	tasks       chan gemmTask
	workers     int
)

// startWorkers starts one worker per CPU beyond the caller's. The count is
// fixed here so a later GOMAXPROCS change can never leave a band without a
// worker to take it.
func startWorkers() {
	tasks = make(chan gemmTask)
	workers = runtime.NumCPU() - 1
	for range workers {
		go func() {
			for t := range tasks {
				gemm(t.m, t.n, t.k, t.a, t.lda, t.b, t.ldb, t.c, t.ldc)
				t.done.Done()
			}
		}()
	}
}

// parGemm is gemm split into row bands across GOMAXPROCS cores for large
// problems. wg belongs to the caller's Workspace so no allocation happens.
func parGemm(wg *sync.WaitGroup, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m*n*k < parallelFlops || m < 8 || runtime.GOMAXPROCS(0) == 1 {
		gemm(m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	workersOnce.Do(startWorkers)
	procs := min(runtime.GOMAXPROCS(0), workers+1)
	if procs == 1 {
		gemm(m, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	band := (m + procs - 1) / procs
	band = (band + 3) &^ 3 // keep the four-row kernel busy
	first := min(band, m)
	for i0 := first; i0 < m; i0 += band {
		rows := min(band, m-i0)
		wg.Add(1)
		tasks <- gemmTask{m: rows, n: n, k: k, a: a[i0*lda:], lda: lda, b: b, ldb: ldb, c: c[i0*ldc:], ldc: ldc, done: wg}
	}
	gemm(first, n, k, a, lda, b, ldb, c, ldc)
	wg.Wait()
}
