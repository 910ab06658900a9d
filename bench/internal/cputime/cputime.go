// Package cputime measures the CPU one thread spends, for the benchmarks
// that time a call on a goroutine locked to its thread (runtime.LockOSThread):
// the difference of Thread over a call is that call's CPU alone, without the
// collector's work on other threads and whatever else the machine runs.
package cputime

import (
	"slices"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

// Thread is the calling thread's user plus system CPU time; 0 where the
// system cannot say.
func Thread() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Process is the whole process's user plus system CPU time, every thread's
// (for work handed to other goroutines, as the engines' workers do); 0
// where the system cannot say.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// MedianP95 are d's median and 95th percentile (0, 0 for none).
func MedianP95(d []time.Duration) (median, p95 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2], s[min(len(s)-1, len(s)*95/100)]
}
