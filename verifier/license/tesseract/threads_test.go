package tesseract

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// TestReadStartsNoThreads: a read on an OS thread other than the one that
// opened the reader (as Go runs cgo calls: on whichever thread the
// goroutine is on) runs on that thread alone. OpenMP's max active levels
// are a setting of the thread that sets them; set only where the reader
// was opened, every other thread that read started a team of OpenMP
// threads of its own, spinning beside the read (16% of the engines' tests'
// CPU, 2026-12-02) where the engines' worker pool counts one core a read.
func TestReadStartsNoThreads(t *testing.T) {
	opened := make(chan *Reader)
	done := make(chan struct{})
	go func() {
		// This goroutine keeps the opening thread to itself (locked,
		// never unlocked) until the read below is over.
		runtime.LockOSThread()
		r, err := New("")
		if err != nil {
			t.Error(err)
		}
		opened <- r
		<-done
	}()
	r := <-opened
	if r == nil {
		return
	}
	defer r.Close()
	defer close(done)
	img := cardtest.Scene{Aspect: 1.585, Front: &cardtest.Front{Lines: cardtest.FrontLines(sample())}}.Card()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threads(t)
	if _, _, err := r.ReadFront(img); err != nil {
		t.Fatal(err)
	}
	// Tesseract asks for teams of 4 (3 threads besides the caller), on
	// any number of cores; Go may start a thread of its own during a
	// long cgo call (0 or 1 seen in 5 runs).
	if after := threads(t); after-before >= 3 {
		t.Errorf("threads %d before the read, %d after: the read started an OpenMP team", before, after)
	}
}

// threads is the process's number of threads (/proc/self/status).
func threads(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Threads:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no Threads: line in /proc/self/status")
	return 0
}
