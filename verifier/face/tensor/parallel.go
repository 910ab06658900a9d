package tensor

import (
	"runtime"
	"sync"
)

// parallelFlops is the work (m·n·k) above which a gemm is split across
// cores; below it the hand-off costs more than it saves.
const parallelFlops = 1 << 22

// gemmTask is one horizontal band of a gemm; with packed set, b is
// already packed for the FMA kernel and ldb is unused.
type gemmTask struct {
	m, n, k       int
	a, b, c       []float32
	packed        []float32
	lda, ldb, ldc int
}

// task is a unit of work for the workers: a gemm band, or rows r0..r1 of
// a depthwise convolution. It travels by value over a channel to
// long-lived workers, so splitting work allocates nothing.
type task struct {
	gemm   gemmTask
	dw     dwTask
	r0, r1 int
	done   *sync.WaitGroup
}

// run does the task with scratch, the running goroutine's own.
func (t *task) run(scratch *fmaBuf) {
	if t.dw.out != nil || t.dw.img != nil {
		t.dw.rows(t.r0, t.r1)
		return
	}
	g := &t.gemm
	if g.packed != nil {
		gemmPacked(scratch, g.m, g.n, g.k, g.a, g.lda, g.packed, g.c, g.ldc)
		return
	}
	gemm(g.m, g.n, g.k, g.a, g.lda, g.b, g.ldb, g.c, g.ldc)
}

var (
	workersOnce sync.Once
	tasks       chan task
	workers     int
)

// startWorkers starts one worker per CPU beyond the caller's. The count is
// fixed here so a later GOMAXPROCS change can never leave a band without a
// worker to take it.
func startWorkers() {
	tasks = make(chan task)
	workers = runtime.NumCPU() - 1
	for range workers {
		go func() {
			var scratch fmaBuf
			for t := range tasks {
				t.run(&scratch)
				t.done.Done()
			}
		}()
	}
}

// parGemm is gemm split into row bands across GOMAXPROCS cores for large
// problems; with the FMA kernel, b is packed once (into ws, unless pre
// holds it packed already) and shared by the bands. Workspace and worker
// scratch mean no allocation once warm.
func parGemm(ws *Workspace, m, n, k int, a []float32, lda int, b []float32, ldb int, pre, c []float32, ldc int) {
	procs := 1
	if m*n*k >= parallelFlops && m >= 8 && runtime.GOMAXPROCS(0) > 1 {
		workersOnce.Do(startWorkers)
		procs = min(runtime.GOMAXPROCS(0), workers+1)
	}
	var packed []float32
	switch {
	case haveFMA && pre != nil:
		packed = pre
	case haveFMA:
		ws.fma.packed = packB(ws.fma.packed, b, ldb, k, n)
		packed = ws.fma.packed
	}
	band := (m + procs - 1) / procs
	band = (band + 3) &^ 3 // keep the four-row kernel busy
	first := min(band, m)
	for i0 := first; i0 < m; i0 += band {
		rows := min(band, m-i0)
		ws.wg.Add(1)
		tasks <- task{gemm: gemmTask{m: rows, n: n, k: k, a: a[i0*lda:], lda: lda, b: b, ldb: ldb, packed: packed, c: c[i0*ldc:], ldc: ldc}, done: &ws.wg}
	}
	if packed != nil {
		gemmPacked(&ws.fma, first, n, k, a, lda, packed, c, ldc)
	} else {
		gemm(first, n, k, a, lda, b, ldb, c, ldc)
	}
	ws.wg.Wait()
}

// parRows runs a row-banded task over rows 0..rows, split across cores when
// the work (multiply-adds) is large enough.
func parRows(wg *sync.WaitGroup, t task, rows, work int) {
	procs := 1
	if work >= parallelFlops/4 && rows >= 2 && runtime.GOMAXPROCS(0) > 1 {
		workersOnce.Do(startWorkers)
		procs = min(runtime.GOMAXPROCS(0), workers+1, rows)
	}
	band := (rows + procs - 1) / procs
	for r0 := band; r0 < rows; r0 += band {
		t := t
		t.r0, t.r1, t.done = r0, min(r0+band, rows), wg
		wg.Add(1)
		tasks <- t
	}
	t.r0, t.r1 = 0, min(band, rows)
	t.run(nil) // depthwise rows need no gemm scratch
	wg.Wait()
}
