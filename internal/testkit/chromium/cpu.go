package chromium

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// reportCPU appends "<cpu s> <package>.<test>" to $IDGATE_BROWSER_CPU_REPORT
// for the browser behind ctx, just before it is stopped: the CPU of its
// whole process tree (the browser, its renderers, GPU and utility
// processes, and those already ended). A browser test's cost to CI's two
// cores is mostly its browser's, which go test's own accounting misses
// when the browser is killed before its children are reaped; `make test`
// prints the costliest tests (scripts/testgo.sh).
func reportCPU(t testing.TB, ctx context.Context) {
	path := os.Getenv("IDGATE_BROWSER_CPU_REPORT")
	c := chromedp.FromContext(ctx)
	if path == "" || c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return
	}
	secs := treeCPU(c.Browser.Process().Pid)
	pkg, _ := os.Getwd()
	if rel, err := filepath.Rel(os.Getenv("IDGATE_REPO"), pkg); err == nil && os.Getenv("IDGATE_REPO") != "" {
		pkg = rel
	}
	line := fmt.Sprintf("%.1f %s.%s\n", secs, filepath.ToSlash(pkg), t.Name())
	// One short O_APPEND write: parallel tests and packages do not
	// interleave within a line.
	if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		_, _ = f.WriteString(line)
		_ = f.Close()
	}
}

// proc is one process: its parent, and its CPU and its reaped
// children's in clock ticks.
type proc struct {
	ppid  int
	ticks float64
}

// treeCPU is the user and system seconds of process root and every live
// descendant, each with its reaped children's (/proc/<pid>/stat).
func treeCPU(root int) float64 {
	procs := map[int]proc{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			procs[pid] = p
		}
	}
	in := map[int]bool{root: true}
	// Descendants: repeat until no process joins (a tree a few levels deep).
	for grew := true; grew; {
		grew = false
		for pid, p := range procs {
			if !in[pid] && in[p.ppid] {
				in[pid], grew = true, true
			}
		}
	}
	var ticks float64
	for pid := range in {
		ticks += procs[pid].ticks
	}
	// USER_HZ is 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)).
	return ticks / 100
}

// readStat reads a process's parent and utime+stime+cutime+cstime.
func readStat(pid int) (p proc, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return p, false
	}
	// The command name, in parentheses, may hold spaces: fields follow its
	// last ')'. After it: state(3) ppid(4) … utime(14) stime(15)
	// cutime(16) cstime(17), counted from 1 for the whole line.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return p, false
	}
	p.ppid, _ = strconv.Atoi(f[1])
	for _, i := range []int{11, 12, 13, 14} {
		v, _ := strconv.ParseFloat(f[i], 64)
		p.ticks += v
	}
	return p, true
}
