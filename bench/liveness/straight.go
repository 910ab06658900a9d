package main

import (
	"fmt"
	"math"
	"strings"
	"time"

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
		sig := j.seq.signals(sigs)
		page := liveness.StraightAheads(sig, soFar())
		whole := liveness.StraightAhead(sig, wholeStream())
		for _, e := range liveness.Turns(sig, soFar()) {
			peak, reach, side := turnPeak(sig, page, e)
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

// sameSideTwice prints how the real man's prompted session fares when it
// is recut as the end-user page records it: 600 ms at rest (the page's
// lead-in before the first cue: clip 2.6–3.2 s), then the steps of four
// orders from his own turns and blink, each cut from rest to rest (left
// turn 3.2–6.0 s, right turn 8.9–10.7 s, blink 10.7–11.7 s), among them
// the same turn twice with a blink between; at each rate his session was
// captured. For each configuration: the verdict, and the straight-ahead
// each turn was judged from at its peak with how far it reached. With a
// short lead-in a turn's frames within 20° of the camera outnumber the
// rest, and a straight-ahead that counts them drifts towards the first
// turn's side and reads a second turn to that side short. Each
// configuration on its own signals (cols).
func sameSideTwice(js []judged, cols []column) {
	type cut struct{ from, to time.Duration }
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	lead := cut{ms(2600), ms(3200)} // 600 ms at rest, as the page's lead-in
	left, right, blink := cut{ms(3200), ms(6000)}, cut{ms(8900), ms(10700)}, cut{ms(10700), ms(11700)}
	L, R, B := liveness.TurnLeft, liveness.TurnRight, liveness.Blink
	orders := []struct {
		name  string
		steps []liveness.Step
		cuts  []cut
	}{
		{"left, right, blink", []liveness.Step{L, R, B}, []cut{lead, left, right, blink}},
		{"right, left, blink", []liveness.Step{R, L, B}, []cut{lead, right, left, blink}},
		{"left, blink, left", []liveness.Step{L, B, L}, []cut{lead, left, blink, left}},
		{"right, blink, right", []liveness.Step{R, B, R}, []cut{lead, right, blink, right}},
	}
	fmt.Println("the same turn asked twice, and other orders: the real man's session recut after a 600 ms lead-in (straight-ahead at each turn's peak → how far it reached)")
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	for _, j := range js {
		if j.seq.class != "live" || !strings.HasPrefix(j.seq.name, "smartlive session, as prompted") {
			continue
		}
		for _, o := range orders {
			fmt.Printf("  %s, %s\n", o.name, strings.TrimPrefix(j.seq.name, "smartlive session, as prompted, "))
			for _, c := range cols {
				var sig []liveness.Signal
				var end time.Duration
				for _, cu := range o.cuts {
					var first time.Duration = -1
					for _, s := range j.seq.signals(c.sigs) {
						if s.T < cu.from || s.T >= cu.to {
							continue
						}
						if first < 0 {
							first = s.T
						}
						s.T = end + s.T - first
						sig = append(sig, s)
					}
					end = sig[len(sig)-1].T + 100*time.Millisecond
				}
				ch := liveness.Challenge{Nonce: "twice", Steps: o.steps, IssuedAt: now.Add(-end - time.Second),
					ExpiresAt: now.Add(time.Minute), StepTimeoutMS: c.cfg.StepTimeout.Milliseconds()}
				res := liveness.Decide(ch, sig, now, c.cfg)
				base := liveness.StraightAheads(sig, c.cfg)
				var turns []string
				for _, e := range liveness.Turns(sig, c.cfg) {
					peak, reach, _ := turnPeak(sig, base, e)
					turns = append(turns, fmt.Sprintf("%s %+.1f° → %.1f°", e.Kind, base[peak], reach))
				}
				verdict := "passed"
				if !res.Live {
					verdict = fmt.Sprint("refused ", res.Failures)
				}
				fmt.Printf("    %-30s %-28s %s\n", c.name, verdict, strings.Join(turns, ", "))
			}
		}
	}
}

// turnPeak is turn e's frame furthest from the straight-ahead each frame
// is judged from (base), how far that is towards the turn's side, and
// the side (+1 left, −1 right).
func turnPeak(sig []liveness.Signal, base []float64, e liveness.Event) (peak int, reach, side float64) {
	side = 1
	if e.Kind == liveness.TurnRight {
		side = -1
	}
	peak, reach = e.From, math.Inf(-1)
	for i := e.From; i <= e.To; i++ {
		if r := (sig[i].Pose.Yaw - base[i]) * side; sig[i].Faces > 0 && r > reach {
			peak, reach = i, r
		}
	}
	return peak, reach, side
}
