package main

// The time to the first guidance alone (go run ./bench/pages -first N):
// today's page and the one before (before.go), both tracking on the
// page's thread, N runs each in turn, each run stopped at the first
// guidance, so that many runs fit where the whole step's rows take a
// minute a run; on a shared machine the load moves the figure by seconds
// (the paced row's first cue, with nothing to download, read 9.1 s at a
// load of 5–10), and more runs, each beside the other page's, show a
// change the whole step's four runs cannot. Each row also says where the
// time went: when the camera and the tracker were ready (the stage's
// data-camera-at and data-tracker-at, today's page only) and when each
// of the tracker's files was in (Resource Timing), run by run, from the
// click.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/chromedp/chromedp"
)

var firstRuns = flag.Int("first", 0, "measure only the time to the first guidance, on the page's thread, today's page and the one before, this many runs each")

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
		// The first fetch of each: Human asks for the detector's model
		// again (from the cache) as it loads the mesh.
		const k = m && m[1] + m[2] + " in";
		if (m && !(k in out)) out[k] = e.responseEnd - t0;
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

// printFirst prints each page's times to the first guidance: median,
// quartiles and range, and today's median over the one before's; then
// each run's milestones, in the order they came (medians taken apart
// would mix runs: the load moves every milestone by seconds).
func printFirst(today, before []liveMeasure, todayName, beforeName string) error {
	if len(today) == 0 || len(before) == 0 {
		return fmt.Errorf("first guidance: no runs")
	}
	row := func(name string, ms []liveMeasure) float64 {
		var v []float64
		for _, m := range ms {
			v = append(v, m.first)
		}
		sort.Float64s(v)
		n := len(v)
		fmt.Printf("liveness step, %-34s first guidance median %5.0f ms, quartiles %5.0f–%5.0f ms, range %5.0f–%5.0f ms, %d runs; 4× CPU, Fast 4G, cold\n",
			name, v[n/2], v[n/4], v[(3*n)/4], v[0], v[n-1], n)
		return v[n/2]
	}
	t, b := row(todayName, today), row(beforeName, before)
	fmt.Printf("  today's median ÷ before's: %.2f×; target ≤ 2000 ms\n", t/b)
	for _, r := range []struct {
		name string
		ms   []liveMeasure
	}{{todayName, today}, {beforeName, before}} {
		fmt.Printf("  %s, each run's milestones in ms from the click:\n", r.name)
		for _, m := range r.ms {
			type milestone struct {
				name string
				ms   float64
			}
			order := []milestone{{"first guidance", m.first}}
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
	}
	return nil
}
