package main

import (
	"fmt"
	"math"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// straightGaps prints, for every turn of the real live windows (and a
// summary over Foreman's), how far the turn reached past straight-ahead
// as the end-user page measures it live (the median of the frames so far:
// verifier/web/src/trackersteps.ts, Steps.settle) and as the server
// measures it from the whole stream (the rule before the causal one), and
// the gap between the two baselines at the turn's peak. Under the
// so-far rule the server's straight-ahead is the page's on the same
// frames: what is left between them on a real walk is the page's
// subset of the frames and its own mesh (the Chromium walk test measures
// that). A positive gap means the whole-stream rule reads the turn
// shorter than the page did.
func straightGaps(js []judged, sigs map[string]liveness.Signal) {
	fmt.Println("straight-ahead at each turn's peak: the page's (frames so far, = the server's so-far rule) against the whole stream's (the server before)")
	fmt.Printf("  %-44s %-10s %8s %8s %12s %12s %6s\n", "real window", "turn", "so far", "whole", "reach so far", "reach whole", "gap")
	worst := map[bool]float64{}
	for _, j := range js {
		if j.seq.class != "live" {
			continue
		}
		sig := make([]liveness.Signal, len(j.seq.frames))
		for i, f := range j.seq.frames {
			sig[i] = sigs[f.key()]
			sig[i].T = j.seq.at(i)
		}
		page := liveness.StraightAheads(sig, soFar())
		whole := liveness.StraightAhead(sig, wholeStream())
		for _, e := range liveness.Turns(sig, soFar()) {
			side := 1.0
			if e.Kind == liveness.TurnRight {
				side = -1
			}
			peak, reach := e.From, math.Inf(-1)
			for i := e.From; i <= e.To; i++ {
				if r := (sig[i].Pose.Yaw - page[i]) * side; sig[i].Faces > 0 && r > reach {
					peak, reach = i, r
				}
			}
			gap := (whole - page[peak]) * side
			real := j.seq.clip != ""
			worst[real] = math.Max(worst[real], math.Abs(gap))
			if real {
				fmt.Printf("  %-44s %-10s %7.1f° %7.1f° %11.1f° %11.1f° %5.1f°\n", j.seq.name, e.Kind, page[peak], whole, reach, (sig[peak].Pose.Yaw-whole)*side, gap)
			}
		}
	}
	fmt.Printf("  largest gap: real windows %.1f°, Foreman's sequences %.1f° (so-far rule: 0 on the same frames)\n", worst[true], worst[false])
}
