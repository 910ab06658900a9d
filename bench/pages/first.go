package main

// The time to the first guidance and to the head's pose alone (go run
// ./bench/pages -first N): today's page tracking on the page's thread, N
// runs, each stopped at the first pose (the mesh's first frame), so that
// many runs fit where the whole step's rows take
// a minute a run; on a shared machine the load moves the figure by
// seconds (the paced row's first cue, with nothing to download, read
// 9.1 s at a load of 5–10), so a change is measured by runs of each
// version at about the same load (an earlier row ran an older
// page's script beside today's, which stopped working when the tracker's
// library changed from Human to TensorFlow.js alone). Each row also says where the
// time went: when the camera and the tracker were ready (the stage's
// data-camera-at and data-tracker-at, today's page only) and when each
// of the tracker's files was in (Resource Timing), run by run, from the
// click, and for each model's weights when they were asked for and their
// first byte. -first-cpu, -first-net and -first-worker take the CPU
// slowdown or the network profile away, or track in the worker (whose
// downloads the page's Resource Timing does not list), to tell where the
// time goes.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/chromedp/chromedp"
)

var firstRuns = flag.Int("first", 0, "measure only the times to the first guidance and the head's pose, on the page's thread, this many runs")

// -first's runs with the CPU slowdown or the network profile taken away,
// or in the worker: what the page's busy thread costs, and the throttle.
var (
	firstCPU    = flag.Float64("first-cpu", 0, "-first: the CPU slowdown (1: none; 0: -cpu's)")
	firstNet    = flag.Bool("first-net", true, "-first: the Fast 4G profile (false: the loopback's own speed)")
	firstWorker = flag.Bool("first-worker", false, "-first: the tracker in its worker, not on the page's thread")
)

// firstSlowdown is -first's CPU slowdown: -first-cpu's, or the rows' (-cpu).
func firstSlowdown() float64 {
	if *firstCPU > 0 {
		return *firstCPU
	}
	return cpuSlowdown
}

// phasesJS gives the milestones of a run, in ms from the click: the
// camera and the tracker ready, where the page says so, and the end of
// each tracker file's first download, by its name without the content
// hash.
const phasesJS = `(() => {
	const t0 = window.idgateBenchT0, s = document.querySelector(".stage").dataset, out = {};
	if (s.cameraAt) out["camera open"] = +s.cameraAt;
	if (s.trackerAt) out["tracker ready"] = +s.trackerAt;
	for (const e of performance.getEntriesByType("resource")) {
		const m = e.name.match(/\/assets\/(tracker-.+)-[0-9a-f]{16}(\.\w+)$/);
		// The first fetch of each (a second one is answered by the cache);
		// a model's weights also when asked and at their first byte.
		const k = m && m[1] + m[2];
		if (!m || k + " in" in out) continue;
		out[k + " in"] = e.responseEnd - t0;
		if (m[2] === ".bin") (out[k + " asked"] = e.startTime - t0), (out[k + " first byte"] = e.responseStart - t0);
	}
	return JSON.stringify(out);
})()`

// phasesOf reads a run's milestones (phasesJS).
func phasesOf(ctx context.Context) (map[string]float64, error) {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](phasesJS))
	if err != nil {
		return nil, err
	}
	var p map[string]float64
	return p, json.Unmarshal([]byte(raw), &p)
}

// printFirst prints the page's times to the first guidance: median,
// quartiles and range; then each run's milestones, in the order they came
// (medians taken apart would mix runs: the load moves every milestone by
// seconds).
func printFirst(runs []liveMeasure, name string) error {
	if len(runs) == 0 {
		return fmt.Errorf("first guidance: no runs")
	}
	n := len(runs)
	sorted := func(f func(liveMeasure) float64) []float64 {
		var v []float64
		for _, m := range runs {
			v = append(v, f(m))
		}
		sort.Float64s(v)
		return v
	}
	v := sorted(func(m liveMeasure) float64 { return m.first })
	profile := "no network profile"
	if *firstNet {
		profile = "Fast 4G"
	}
	fmt.Printf("liveness step, %s: first guidance median %5.0f ms, quartiles %5.0f–%5.0f ms, range %5.0f–%5.0f ms, %d runs; target ≤ 2000 ms; %g× CPU, %s, cold\n",
		name, v[n/2], v[n/4], v[(3*n)/4], v[0], v[n-1], n, firstSlowdown(), profile)
	v = sorted(func(m liveMeasure) float64 { return m.posed })
	fmt.Printf("  head pose (the mesh's first frame) median %5.0f ms, quartiles %5.0f–%5.0f ms, range %5.0f–%5.0f ms\n", v[n/2], v[n/4], v[(3*n)/4], v[0], v[n-1])
	v = sorted(func(m liveMeasure) float64 { return m.faults })
	cost, err := faultCost()
	if err != nil {
		return err
	}
	fmt.Printf("  minor page faults of the browser's processes, click to first guidance: median %.0f, range %.0f–%.0f; a fault costs %.1f µs on this machine (64 MiB written by the bench)\n", v[n/2], v[0], v[n-1], cost)
	fmt.Printf("  each run's milestones in ms from the click:\n")
	for _, m := range runs {
		type milestone struct {
			name string
			ms   float64
		}
		order := []milestone{{"first guidance", m.first}, {"head pose", m.posed}}
		for k, v := range m.phases {
			order = append(order, milestone{k, v})
		}
		sort.Slice(order, func(i, j int) bool { return order[i].ms < order[j].ms })
		var parts []string
		for _, o := range order {
			parts = append(parts, fmt.Sprintf("%s %.0f", o.name, o.ms))
		}
		fmt.Printf("    %s\n", strings.Join(parts, ", "))
	}
	return nil
}
