package main

// Chromium's DevTools slow a page down (Emulation.setCPUThrottlingRate,
// Network.emulateNetworkConditionsByRule) on the session of the target
// they are sent to. A dedicated worker is a target of its own: the page's
// slowdown does not reach it. So every tab here also attaches to its
// workers (chromedp's tabs auto-attach to them, flattened) and asks the
// same of each worker's session; throttleProbe measures whether Chromium
// honours it, on a known busy loop.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	cdptarget "github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/bench/internal/loopback"
)

// workerThrottle is what attaching to a tab's workers achieved: how many
// were seen, and the first error Chromium gave for the CPU slowdown and for
// the network profile on a worker's session (nil: it took them).
type workerThrottle struct {
	mu             sync.Mutex
	seen           int
	cpuErr, netErr error
}

// throttleWorkers attaches to every worker tab ctx starts and sends it the
// CPU slowdown and the network profile (net: whether the tab has one).
func throttleWorkers(ctx context.Context, rate float64, net bool) (*workerThrottle, error) {
	w := &workerThrottle{}
	err := chromedp.Listen(ctx, func(ev any) {
		e, ok := ev.(*cdptarget.EventAttachedToTarget)
		if !ok || e.TargetInfo.Type != "worker" {
			return
		}
		go func() {
			// Detach only, when the tab ends: the worker is the page's.
			wctx, _ := chromedp.NewContext(ctx, chromedp.WithTargetID(e.TargetInfo.TargetID), chromedp.WithDetachOnCancel())
			_, cpuErr := chromedp.Call(wctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
			var netErr error
			if net {
				_, netErr = chromedp.Call(wctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{&loopback.Fast4G}})
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			w.seen++
			if w.cpuErr == nil {
				w.cpuErr = cpuErr
			}
			if w.netErr == nil {
				w.netErr = netErr
			}
		}()
	})
	return w, err
}

// took says whether every worker seen took the CPU slowdown and the
// network profile.
func (w *workerThrottle) took() (cpu, net bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen > 0 && w.cpuErr == nil, w.seen > 0 && w.netErr == nil
}

// probePage runs the same busy loop, again and again, on the page's thread
// and in a worker, one after the other (the two never compete for a core),
// and keeps each one's times (ms).
const probePage = `<!doctype html><script>
const loop = "function busy() { const t = performance.now(); let x = 0; for (let i = 0; i < 2e7; i++) x += Math.sqrt(i); return [performance.now() - t, x]; }";
window.probe = { page: [], worker: [] };
const w = new Worker(URL.createObjectURL(new Blob([loop + ";onmessage = () => postMessage(busy()[0]);"], { type: "text/javascript" })));
const busy = new Function(loop + ";return busy;")();
const inWorker = () => new Promise((ok) => { w.onmessage = (e) => ok(e.data); w.postMessage(0); });
window.run = async (n) => {
  for (let k = 0; k < n; k++) {
    probe.page.push(busy()[0]);
    probe.worker.push(await inWorker());
    await new Promise((ok) => setTimeout(ok, 100));
  }
  return probe;
};
</script>`

// throttleProbe measures the busy loop unthrottled and at cpuSlowdown,
// with the slowdown sent to the page and to its worker, and prints the
// ratios and what Chromium answered on the worker's session. The fastest
// of the runs is kept: on a shared machine the slower ones measure the
// load.
func throttleProbe(alloc context.Context) error {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, probePage)
	}))
	defer srv.Close()
	var fastest [2][2]float64 // [unthrottled, slowed][page, worker]
	var wt *workerThrottle
	for i, rate := range []float64{1, cpuSlowdown} {
		tab, cancel := chromedp.NewContext(alloc)
		ctx, cancelT := context.WithTimeout(tab, time.Minute)
		err := func() error {
			if err := chromedp.Do(ctx); err != nil {
				return err
			}
			if rate > 1 {
				var err error
				if wt, err = throttleWorkers(ctx, rate, false); err != nil {
					return err
				}
				if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
					return err
				}
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
				return err
			}
			// Let the worker be attached (and slowed, if Chromium takes it).
			time.Sleep(500 * time.Millisecond)
			p, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ Page, Worker []float64 }](`run(12)`, chromedp.EvalAwaitPromise))
			if err != nil {
				return err
			}
			if len(p.Page) == 0 || len(p.Worker) == 0 {
				return fmt.Errorf("the probe ran %d times on the page and %d in the worker", len(p.Page), len(p.Worker))
			}
			fastest[i] = [2]float64{slices.Min(p.Page), slices.Min(p.Worker)}
			return nil
		}()
		cancelT()
		cancel()
		if err != nil {
			return fmt.Errorf("throttle probe: %w", err)
		}
	}
	said := "took it"
	if wt.seen == 0 {
		said = "no worker target seen"
	} else if wt.cpuErr != nil {
		said = fmt.Sprintf("refused: %v", wt.cpuErr)
	}
	fmt.Printf("CPU slowdown probe: a busy loop takes %.0f ms on the page's thread and %.0f ms in a worker; at %g× %.0f ms (%.1f×) and %.0f ms (%.1f×); Emulation.setCPUThrottlingRate on the worker's own session: %s\n",
		fastest[0][0], fastest[0][1], cpuSlowdown, fastest[1][0], fastest[1][0]/fastest[0][0], fastest[1][1], fastest[1][1]/fastest[0][1], said)
	return nil
}

// slowWorker stands in for a phone's worker at the CPU slowdown, which
// Chromium cannot give a worker (the probe above): put in the page before
// its script runs, it holds back each frame's answer from the tracker's
// worker (tracker.ts: "seen" or "unseen" for a "see" of the same id)
// until rate times the time the worker took to answer, as a core
// that much slower would. It waits without a busy loop, as the worker
// does on a phone's core of its own: nothing else runs in it meanwhile
// (the page sends the next frame only on an answer). The models' loading
// in the worker is not held back, so the row's first guidance is an
// unthrottled worker's but for its first frames.
func slowWorker(rate float64) string {
	return fmt.Sprintf(`(() => {
  const W = window.Worker;
  if (!W) return;
  window.Worker = class extends W {
    constructor(url, opts) {
      super(url, opts);
      this.sent = new Map();
    }
    postMessage(m, t) {
      if (m && m.type === "see") this.sent.set(m.id, performance.now());
      return super.postMessage(m, t);
    }
    set onmessage(h) {
      super.onmessage = (ev) => {
        const m = ev.data;
        const at = m && (m.type === "seen" || m.type === "unseen") ? this.sent.get(m.id) : undefined;
        if (at === undefined) return h.call(this, ev);
        this.sent.delete(m.id);
        setTimeout(() => h.call(this, ev), (%g - 1) * (performance.now() - at));
      };
    }
  };
})();`, rate)
}
