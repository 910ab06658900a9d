package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// appName marks the bench's PostgreSQL connections so the meter finds
// their backends; the meter's own connection is named differently.
const appName = "idgate-bench-lifecycle"

// clockTick is USER_HZ, the unit of /proc/<pid>/stat times (100 on every
// Linux build that matters).
const clockTick = 10 * time.Millisecond

// cpuMeter reads the CPU time of this process and of the PostgreSQL
// backends serving the bench's pools (through /proc, so only when the
// server runs on this machine).
type cpuMeter struct{ dsn string }

func newCPUMeter(dsn string) cpuMeter { return cpuMeter{dsn} }

// cpuSample is the process's CPU time and each backend's.
type cpuSample struct {
	self     time.Duration
	backends map[int]time.Duration
	// wakeups is each backend's voluntary context switches: it sleeps
	// once per message exchange, waiting for the client's next one, so
	// this counts round trips to PostgreSQL whatever the machine's load.
	wakeups map[int]int64
	ok      bool
}

func (m cpuMeter) read(ctx context.Context) cpuSample {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuSample{}
	}
	self := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	pids, err := m.backendPIDs(ctx)
	if err != nil {
		return cpuSample{}
	}
	backends := make(map[int]time.Duration, len(pids))
	wakeups := make(map[int]int64, len(pids))
	for _, pid := range pids {
		t, err := procCPU(pid)
		if err != nil {
			return cpuSample{} // server elsewhere (or /proc hidden): no figure rather than half of one
		}
		backends[pid] = t
		wakeups[pid] = procSwitches(pid)
	}
	return cpuSample{self: self, backends: backends, wakeups: wakeups, ok: true}
}

// perRequest is the CPU spent since before, divided over n requests, in
// all and in the PostgreSQL backends alone, and the backends' wakeups per
// request; zeros when it cannot be measured. Backends opened meanwhile
// count from zero.
func (m cpuMeter) perRequest(ctx context.Context, before cpuSample, n int) (all, db time.Duration, wakeups float64) {
	after := m.read(ctx)
	if !before.ok || !after.ok {
		return 0, 0, 0
	}
	var w int64
	for pid, t := range after.backends {
		db += t - before.backends[pid]
		w += after.wakeups[pid] - before.wakeups[pid]
	}
	all = after.self - before.self + db
	return all / time.Duration(n), db / time.Duration(n), float64(w) / float64(n)
}

// procSwitches is a process's voluntary context switches (0 if unread).
func procSwitches(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

func (m cpuMeter) backendPIDs(ctx context.Context) ([]int, error) {
	// The pool's parser, as the DSN carries pool settings (pool_max_conns).
	pcfg, err := pgxpool.ParseConfig(m.dsn)
	if err != nil {
		return nil, err
	}
	cfg := pcfg.ConnConfig
	cfg.RuntimeParams["application_name"] = appName + "-meter"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1`, appName)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int])
}

// procCPU is the CPU time of a process: its time on a CPU from
// /proc/<pid>/schedstat, in nanoseconds (a backend serves a scenario's few
// hundred requests in tens of milliseconds, which /proc/<pid>/stat's 10 ms
// ticks would blur), else user + system time from /proc/<pid>/stat.
func procCPU(pid int) (time.Duration, error) {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid)); err == nil {
		if f := strings.Fields(string(b)); len(f) == 3 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				return time.Duration(ns), nil
			}
		}
	}
	return procStatCPU(pid)
}

// procStatCPU is user + system time of a process from /proc/<pid>/stat.
func procStatCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: state is field 3, utime 14 and stime 15.
	end := strings.LastIndexByte(string(b), ')')
	if end < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: bad times", pid)
	}
	return time.Duration(utime+stime) * clockTick, nil
}
