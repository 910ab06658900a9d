package main

// Where the page's thread's time goes while the tracked page records
// (go run ./bench/pages -thread): the liveness step's tracked rows give
// frames a second, the levers (stages.go) what the tracker's own stages
// cost; this traces the page's thread (Chromium's tracing, the categories
// DevTools' performance panel reads) from the recording's first frame to
// its last, at the CPU slowdown, on the rows whose page's thread does the
// tracking or waits on a phone-speed worker, and prints its busy share
// and each kind of work by its own (self) time: the script's tasks (the
// tracker's models run in them, as WebAssembly, mostly in promise
// continuations: RunMicrotasks), garbage collection, style, layout and
// paint, and the browser's own tasks named by the code that posted them
// (a canvas's JPEG encoding is ScheduleInitiateEncoding and
// IdleEncodeRows: toBlob encodes on the page's thread, in idle time or,
// after a second without any, forced). IDGATE_TRACE_DUMP=file also
// writes the raw events of one run there (one run a row), for a timeline.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// threadTrace: trace the page's thread on the tracked rows (the flag).
var threadTrace = false

// traceDump names the environment variable that asks for the raw trace.
const traceDump = "IDGATE_TRACE_DUMP"

// traceCategories are DevTools' performance panel's, less the screenshots.
var traceCategories = []string{"-*", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "toplevel", "blink", "v8", "disabled-by-default-devtools.timeline.frame", "latencyInfo"}

// traceEvent is one trace event as Chromium reports it.
type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Args json.RawMessage `json:"args"`
}

// traced collects a trace's events.
type traced struct {
	mu     sync.Mutex
	events []traceEvent
	done   chan struct{}
}

// startTrace starts tracing ctx's browser and collecting its events.
func startTrace(ctx context.Context) (*traced, error) {
	t := &traced{done: make(chan struct{})}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			t.mu.Lock()
			for _, v := range e.Value {
				var te traceEvent
				if json.Unmarshal([]byte(v), &te) == nil {
					t.events = append(t.events, te)
				}
			}
			t.mu.Unlock()
		case *tracing.EventTracingComplete:
			close(t.done)
		}
	}); err != nil {
		return nil, err
	}
	_, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig: &tracing.TraceConfig{IncludedCategories: traceCategories}})
	return t, err
}

// threadShare is one kind of work's time on the page's thread.
type threadShare struct {
	kind string
	ms   float64
}

// stop ends the trace and returns the page's thread's self time by kind
// of work, and the traced span (ms).
func (t *traced) stop(ctx context.Context) ([]threadShare, float64, error) {
	if _, err := chromedp.Call(ctx, tracing.End, struct{}{}); err != nil {
		return nil, 0, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if d := os.Getenv(traceDump); d != "" {
		b, _ := json.Marshal(t.events)
		_ = os.WriteFile(d, b, 0o600)
	}
	// The page's thread: the renderer's main thread with the most work.
	type thread struct{ pid, tid int }
	mains := map[thread]bool{}
	for _, e := range t.events {
		if e.Ph == "M" && e.Name == "thread_name" {
			var a struct{ Name string }
			if json.Unmarshal(e.Args, &a) == nil && a.Name == "CrRendererMain" {
				mains[thread{e.Pid, e.Tid}] = true
			}
		}
	}
	work := map[thread]float64{}
	for _, e := range t.events {
		if e.Ph == "X" && mains[thread{e.Pid, e.Tid}] {
			work[thread{e.Pid, e.Tid}] += e.Dur
		}
	}
	var page thread
	for th, w := range work {
		if w > work[page] {
			page = th
		}
	}
	var evs []traceEvent
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range t.events {
		if e.Ph == "X" && e.Pid == page.pid && e.Tid == page.tid {
			evs = append(evs, e)
			lo, hi = math.Min(lo, e.Ts), math.Max(hi, e.Ts+e.Dur)
		}
	}
	if len(evs) == 0 {
		return nil, 0, fmt.Errorf("trace: no work on the page's thread")
	}
	// Self time: each event's duration less its direct children's, the
	// events nested by time (outer first at equal starts).
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].Ts != evs[j].Ts {
			return evs[i].Ts < evs[j].Ts
		}
		return evs[i].Dur > evs[j].Dur
	})
	self := map[string]float64{}
	var stack []int
	selfOf := make([]float64, len(evs))
	for i, e := range evs {
		for len(stack) > 0 && evs[stack[len(stack)-1]].Ts+evs[stack[len(stack)-1]].Dur <= e.Ts {
			stack = stack[:len(stack)-1]
		}
		selfOf[i] = e.Dur
		if len(stack) > 0 {
			selfOf[stack[len(stack)-1]] -= e.Dur
		}
		stack = append(stack, i)
	}
	for i, e := range evs {
		self[kindOf(e)] += selfOf[i]
	}
	var out []threadShare
	for k, us := range self {
		out = append(out, threadShare{k, us / 1000})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ms > out[j].ms })
	return out, (hi - lo) / 1000, nil
}

// kindOf names an event's work: a task by the code that posted it (the
// browser's own work has no other name), the rest by their own names.
func kindOf(e traceEvent) string {
	if e.Name == "ThreadControllerImpl::RunTask" || e.Name == "RunTask" {
		var a struct {
			Src  string `json:"src_func"`
			Task struct {
				From struct {
					Fn string `json:"function_name"`
				} `json:"posted_from"`
			} `json:"task"`
		}
		_ = json.Unmarshal(e.Args, &a)
		if a.Src != "" {
			return "task posted by " + a.Src
		}
		if a.Task.From.Fn != "" {
			return "task posted by " + a.Task.From.Fn
		}
	}
	return e.Name
}

// printThread prints a row's page's thread, per second of recording, as
// the sum over its runs.
func printThread(name string, shares [][]threadShare, spans []float64) {
	sum := map[string]float64{}
	var span float64
	for i, s := range shares {
		for _, x := range s {
			sum[x.kind] += x.ms
		}
		span += spans[i]
	}
	if span <= 0 {
		return
	}
	var all []threadShare
	var busy float64
	for k, ms := range sum {
		all = append(all, threadShare{k, ms})
		busy += ms
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ms > all[j].ms })
	fmt.Printf("  %s, the page's thread per second of recording (%d runs, %.1f s): busy %.0f ms;", name, len(spans), span/1000, busy/span*1000)
	for i, x := range all {
		if i == 14 || x.ms/span*1000 < 2 {
			break
		}
		fmt.Printf(" %s %.0f;", x.kind, x.ms/span*1000)
	}
	fmt.Println()
}
