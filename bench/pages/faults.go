package main

// Page faults, beside -first's times. On session 20's machine (a
// Firecracker VM) a first write to a page of fresh memory cost 23–38 µs,
// and the first guidance read 3.2–4.2 s where session 19's machine read
// 1.3–1.4 s on the same page: what runs between the click and the first
// guidance is done for the first time (a new browser, its camera, a new
// heap and WebAssembly memory), so it faults its memory in, and the CPU
// slowdown counts the page's thread's faults as its work
// (docs/end-user-flow.md). -first prints the cost of a fault here and
// how many the browser made to the first guidance, so that such a
// machine is seen in its figures.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// faultCost writes one byte to each page of 64 MiB of fresh memory and
// gives the µs a page took, the page faults' cost.
func faultCost() (float64, error) {
	const n = 64 << 20
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(b)
	page := os.Getpagesize()
	t := time.Now()
	for i := 0; i < n; i += page {
		b[i] = 1
	}
	return float64(time.Since(t).Microseconds()) / float64(n/page), nil
}

// treeFaults sums the minor page faults of process pid and of every
// process under it, from /proc.
func treeFaults(pid int) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	parent, faults := map[int]int{}, map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// The fields after the command's closing parenthesis: state, ppid,
		// pgrp, session, tty, tpgid, flags, minflt.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 8 {
			return 0, fmt.Errorf("/proc/%d/stat: %d fields", p, len(f))
		}
		parent[p], _ = strconv.Atoi(f[1])
		faults[p], _ = strconv.Atoi(f[7])
	}
	total := 0
	for p, n := range faults {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				total += n
				break
			}
		}
	}
	return total, nil
}
