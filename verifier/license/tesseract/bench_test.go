package tesseract

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

func BenchmarkReadFront(b *testing.B) {
	r, err := New("")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	img := cardtest.Scene{Aspect: 1.585, Front: &cardtest.Front{Lines: cardtest.FrontLines(sample())}}.Card()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := cpuTime()
	for range b.N {
		if _, _, err := r.ReadFront(img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the calling thread's user and system CPU time (Linux's
// RUSAGE_THREAD): Tesseract runs on the calling thread.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
