package main

// The time to the first guidance alone (go run ./bench/pages -first N):
// today's page and the one before (before.go), both tracking on the
// page's thread, N runs each in turn, each run stopped at the first
// guidance, so that many runs fit where the whole step's rows take a
// minute a run; on a shared machine the load moves the figure by seconds
// (the paced row's first cue, with nothing to download, read 9.1 s at a
// load of 5–10), and more runs, each beside the other page's, show a
// change the whole step's four runs cannot.

import (
	"flag"
	"fmt"
	"sort"
)

var firstRuns = flag.Int("first", 0, "measure only the time to the first guidance, on the page's thread, today's page and the one before, this many runs each")

// printFirst prints each page's times to the first guidance: median,
// quartiles and range, and today's median over the one before's.
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
	return nil
}
