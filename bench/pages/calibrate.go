package main

// What "4× CPU slowdown" means on this machine. Chromium's slowdown is a
// ratio to the host's own speed, so 4× on a slow host is a slower phone
// than 4× on a fast one. Chrome DevTools now calibrates its "Mid-tier
// mobile" and "Low-tier mobile" CPU presets per host instead:
// it finds, by bisection, the slowdown at which Lighthouse's
// BenchmarkIndex (a page function, core/lib/page-functions.js) reads what
// a mid-tier phone (a Pixel 5: 1000) and a low-tier one (a Moto G4 Power
// 2022: 264) read (devtools-frontend, panels/mobile_throttling/
// CalibrationController.ts). calibrate does the same here with
// Lighthouse's own function, fetched by `make benchfiles` from its npm
// package pinned by sha256 (bench/pages/benchfiles.sha256), so every run
// says which phone its slowdown stands for, and -cpu's mid-tier (in its
// default, beside 4×) measures at the slowdown that stands for the issue's
// "mid-range phone".

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The BenchmarkIndex of the two phones DevTools' presets stand for.
const (
	midTierIndex = 1000
	lowTierIndex = 264
)

var (
	cpuProfile = flag.String("cpu", "4,mid-tier", "the CPU slowdowns of the liveness rows, comma-separated (the levers and probes take the first): a number, or mid-tier / low-tier for the slowdown at which this host reads a mid-tier (low-tier) phone's Lighthouse BenchmarkIndex, as Chrome DevTools' calibrated presets do")
	// benchIndexFile is Lighthouse's page functions (make benchfiles).
	benchIndexFile = flag.String("benchmark-index", filepath.Join("var", "bench", "lighthouse", "page-functions.js"), "Lighthouse's core/lib/page-functions.js, for the CPU calibration (make benchfiles)")
)

// benchmarkIndexSource is the source of Lighthouse's computeBenchmarkIndex
// in its page functions: a function written to be sent to a page as text
// (Lighthouse evaluates it that way), which ends at the first line that is
// a lone closing brace.
func benchmarkIndexSource(pageFunctions string) (string, error) {
	const head = "\nfunction computeBenchmarkIndex() {\n"
	i := strings.Index(pageFunctions, head)
	if i < 0 {
		return "", errors.New("no computeBenchmarkIndex in the page functions")
	}
	body := pageFunctions[i+1:]
	j := strings.Index(body, "\n}\n")
	if j < 0 {
		return "", errors.New("computeBenchmarkIndex has no end")
	}
	return body[:j+2], nil
}

// rateFor finds the slowdown at which index reads target: index falls as
// the rate rises, so bisect between lo (reads more) and hi (reads less),
// until a reading is within 10 of target or after 8 halvings, the rate
// kept to two decimals (the bisection DevTools' calibration does).
func rateFor(index func(rate float64) (float64, error), target, lo, hi float64) (float64, error) {
	rate := lo
	for i := 0; i < 8; i++ {
		rate = math.Round((lo+hi)/2*100) / 100
		got, err := index(rate)
		if err != nil {
			return 0, err
		}
		if math.Abs(got-target) < 10 {
			break
		}
		if got < target {
			hi = rate
		} else {
			lo = rate
		}
	}
	return rate, nil
}

// calibration is what calibrate measured: the host's BenchmarkIndex
// unthrottled and at 4×, and the slowdowns that read a mid-tier and a
// low-tier phone's (0 where the host reads less than that phone
// unthrottled: no slowdown stands for it).
type calibration struct {
	host, at4, mid, low float64
}

// calibrate measures this host's BenchmarkIndex in a tab of alloc and the
// slowdowns of DevTools' two presets; ok is false without Lighthouse's
// file (then nothing is measured).
func calibrate(alloc context.Context) (c calibration, ok bool, err error) {
	text, err := os.ReadFile(*benchIndexFile)
	if errors.Is(err, os.ErrNotExist) {
		return c, false, nil
	} else if err != nil {
		return c, false, err
	}
	src, err := benchmarkIndexSource(string(text))
	if err != nil {
		return c, false, fmt.Errorf("%s: %w", *benchIndexFile, err)
	}
	tab, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(tab, 2*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		return c, false, err
	}
	index := func(rate float64) (float64, error) {
		if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
			return 0, err
		}
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64]("("+src+")()"))
		if err == nil && !(v > 0) {
			err = fmt.Errorf("BenchmarkIndex read %v", v)
		}
		return v, err
	}
	// The first reading warms the engine; the better of two after it is
	// the host's (on a shared machine the worse one measures the load).
	var reads [3]float64
	for i := range reads {
		if reads[i], err = index(1); err != nil {
			return c, false, err
		}
	}
	c.host = math.Max(reads[1], reads[2])
	if c.at4, err = index(4); err != nil {
		return c, false, err
	}
	for _, t := range []struct {
		target float64
		rate   *float64
	}{{midTierIndex, &c.mid}, {lowTierIndex, &c.low}} {
		if c.host < t.target {
			continue
		}
		if *t.rate, err = rateFor(index, t.target, 1, c.host/t.target*1.5); err != nil {
			return c, false, err
		}
	}
	return c, true, nil
}

// cpuSlowdowns are -cpu's slowdowns, numbers or calibrated presets, set
// by profileCPU before any row runs: the liveness step measures its rows
// at each, side by side; cpuSlowdown is the first, the levers' and the
// probes'.
var (
	cpuSlowdowns = []float64{4}
	cpuSlowdown  = 4.0
)

// profileCPU calibrates in a tab of alloc, prints what the slowdown
// stands for on this host, and sets cpuSlowdowns from -cpu.
func profileCPU(alloc context.Context) error {
	c, ok, err := calibrate(alloc)
	if err != nil {
		return fmt.Errorf("CPU calibration: %w", err)
	}
	if ok {
		tier := func(rate float64) string {
			if rate == 0 {
				return "none (the host reads less unthrottled)"
			}
			return fmt.Sprintf("%.2f×", rate)
		}
		fmt.Printf("CPU calibration (Lighthouse's BenchmarkIndex, as Chrome DevTools' calibrated presets): this host reads %.0f unthrottled and %.0f at 4×; a mid-tier phone (%d) is %s here, a low-tier one (%d) %s\n",
			c.host, c.at4, midTierIndex, tier(c.mid), lowTierIndex, tier(c.low))
	} else {
		fmt.Printf("CPU calibration: not measured (%s absent: make benchfiles)\n", *benchIndexFile)
	}
	cpuSlowdowns = cpuSlowdowns[:0]
	for _, p := range strings.Split(*cpuProfile, ",") {
		rate, err := slowdownOf(p, c, ok)
		if errors.Is(err, errNotCalibrated) {
			fmt.Printf("CPU slowdown %s: left out (%v)\n", p, err)
			continue
		} else if err != nil {
			return err
		}
		cpuSlowdowns = append(cpuSlowdowns, rate)
	}
	if len(cpuSlowdowns) == 0 {
		return fmt.Errorf("-cpu %s: no slowdown left to measure at", *cpuProfile)
	}
	cpuSlowdown = cpuSlowdowns[0]
	fmt.Printf("CPU slowdowns of the rows below: %v (-cpu %s)\n", cpuSlowdowns, *cpuProfile)
	return nil
}

// errNotCalibrated: a preset asked for where calibrate measured none.
var errNotCalibrated = errors.New("no calibrated slowdown")

// slowdownOf is one of -cpu's slowdowns: a number, or a calibrated
// preset of c (ok: c was measured).
func slowdownOf(p string, c calibration, ok bool) (float64, error) {
	switch p {
	case "mid-tier", "low-tier":
		rate := c.mid
		if p == "low-tier" {
			rate = c.low
		}
		if !ok {
			return 0, fmt.Errorf("%w: make benchfiles", errNotCalibrated)
		}
		if rate == 0 {
			return 0, fmt.Errorf("%w: this host reads less than that phone unthrottled", errNotCalibrated)
		}
		return rate, nil
	}
	rate, err := strconv.ParseFloat(p, 64)
	if err != nil || !(rate >= 1) {
		return 0, fmt.Errorf("-cpu %q: a slowdown of at least 1, mid-tier or low-tier", p)
	}
	return rate, nil
}
