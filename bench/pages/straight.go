package main

// The page's straight-ahead against the server's (issue #29; go run
// ./bench/pages -levers -lever straight, and the whole run). The page
// (trackersteps.ts, Steps.settle) estimates the person's straight-ahead
// from the frames its tracker read, by the server's rule
// (verifier/face/liveness, StraightAheads) over the frames sent; until
// this bench the evidence was two or three replayed walks
// (verifier/web/straightahead_test.go). Here every clip of the levers is
// a recording: every frame sent (a frame every clipFrameMs), the page's
// yaw of each from its own tracker on the page's thread at 4×, the
// server's from its analyser on the same JPEG. Each recording is tracked
// by a few schedules of the page's (straightSchedules) with the first cue
// at 1.5 s or at the clip's first labelled turn, and replayed in node
// through Steps, today's rule, the rule before 6cb5fa0 (each tracked
// frame weighted by the time half-way to its neighbours: the baseline,
// from git) and optionally a candidate file (-straight-candidate); the
// page's straight-ahead after each tracked frame is compared with the
// server's on that frame.
//
// The page reads a frame on a carried box with the yaw of the detector
// frame whose box it was (Seen.anchor), so the tracker runs once per
// clip with the detector on every frame, and a pair's earlier frame takes
// its later frame's yaw, as the page's pairs do (liveness.ts, pairMs).

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	facelive "github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/pose"
)

var straightCandidate = flag.String("straight-candidate", "", "a trackersteps.ts whose Steps the straight-ahead lever replays beside today's and the baseline's")

// straightBaseline is the commit whose trackersteps.ts is the baseline
// rule: the last before 6cb5fa0 (the frames sent counted).
const straightBaseline = "6cb5fa0~1"

// straightApart is how far the page's straight-ahead may be from the
// server's at a turn: the walk test's bound (verifier/web,
// straightMaxApart, held by straightAgrees).
const straightApart = 1.5

// straightStall is how long the stalled schedule tracks nothing, as the
// page stalled 595 ms in a walk at load 4–8 (session 23,
// TestAStallCountsTheFramesSentInIt).
const straightStall = 600 * time.Millisecond

// straightFrame is a frame the page tracked, as Steps.settle takes it.
type straightFrame struct {
	At     int     `json:"at"`
	Found  bool    `json:"found"`
	Yaw    float64 `json:"yaw"`
	Exact  bool    `json:"exact"`
	Anchor float64 `json:"anchor"`
	// i: the clip's frame; key: "cue" or a labelled turn ("turn 2") whose
	// first tracked frame this is.
	i   int
	key string
}

// recording is one clip tracked by one schedule with one cue.
type recording struct {
	Sent     []int           `json:"sent"`
	Frames   []straightFrame `json:"frames"`
	Cue      int             `json:"cue"`
	clip     string
	schedule string
}

// straightRows replays every clip's recordings through each rule and
// prints how far the page's straight-ahead is from the server's.
func straightRows(root string, clips []clip, server, page map[string][]reading) error {
	node, err := exec.LookPath("node")
	if err != nil {
		fmt.Println("  straight-ahead: not measured: node:", err)
		return nil
	}
	extra := map[string][]byte{}
	rules := []string{"today"}
	entry := `export { Steps as today } from "./src/trackersteps";` + "\n"
	base, err := exec.Command("git", "-C", root, "show", straightBaseline+":verifier/web/src/trackersteps.ts").Output()
	if err != nil {
		fmt.Printf("  straight-ahead: the baseline (%s) is unavailable (git show: %v); today's rule alone\n", straightBaseline, err)
	} else {
		extra["src/straight_baseline.ts"] = base
		rules = append(rules, "baseline")
		entry += `export { Steps as baseline } from "./src/straight_baseline";` + "\n"
	}
	if *straightCandidate != "" {
		b, err := os.ReadFile(*straightCandidate)
		if err != nil {
			return fmt.Errorf("straight-ahead: %w", err)
		}
		// Beside the page's sources, so its imports resolve as the page's do.
		extra["src/straight_candidate.ts"] = b
		rules = append(rules, "candidate")
		entry += `export { Steps as candidate } from "./src/straight_candidate";` + "\n"
	}
	serverAt := map[string][]float64{}
	for _, c := range clips {
		s := server[c.name]
		sig := make([]facelive.Signal, len(s))
		for i, r := range s {
			sig[i] = facelive.Signal{T: time.Duration(i*clipFrameMs) * time.Millisecond, Pose: pose.Pose{Yaw: r.yaw}}
			if r.found {
				sig[i].Faces = 1
			}
		}
		serverAt[c.name] = facelive.StraightAheads(sig, facelive.Defaults)
	}
	// Each rule with the page's yaws, then with the server's own: the
	// rule and the schedule alone, no reading error.
	for _, side := range []struct {
		name string
		yaws map[string][]reading
	}{{fmt.Sprintf("the page's yaws (its tracker on the page's thread at %g×)", cpuSlowdown), page}, {"the server's own yaws (the rule and the schedule alone)", server}} {
		var recs []recording
		for _, c := range clips {
			recs = append(recs, straightSchedules(c, side.yaws[c.name], server[c.name])...)
		}
		script := fmt.Sprintf(`
		const data = %s, rules = %s, guide = %s;
		const out = {};
		for (const name of rules) {
			const Rule = G[name];
			out[name] = data.map((r) => {
				// Today's Steps takes (guide, sent); the baseline's took the
				// time between frames sent too (guide, frameMs, sent).
				const steps = Rule.length === 3 ? new Rule(guide, %d, r.sent) : new Rule(guide, r.sent);
				let cued = false;
				return r.frames.map((f) => {
					if (f.at >= r.cue && !cued) steps.next((cued = true, r.cue));
					steps.settle(f.at, f.found ? { face: { x: 100, y: 100, w: 200, h: 200 }, pose: { yaw: f.yaw, pitch: 0, roll: 0 }, eyes: NaN, light: 100, exact: f.exact, anchor: f.anchor }
						: { face: null, pose: null, eyes: NaN, light: 0, exact: true, anchor: NaN }, f.at < r.cue);
					return steps.straight;
				});
			});
		}
		console.log(JSON.stringify(out));`, jsonOf(recs), jsonOf(rules), jsonOf(facelive.Defaults.Guide()), clipFrameMs)
		out, err := testkit.InNode(node, filepath.Join(root, "verifier", "web", "src"), entry, script, extra)
		if err != nil {
			return fmt.Errorf("straight-ahead: %w", err)
		}
		var got map[string][][]float64
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			return fmt.Errorf("straight-ahead: node printed %.200q: %w", out, err)
		}
		printStraight(side.name, rules, recs, got, serverAt)
	}
	return nil
}

// straightSchedules are a clip's recordings: each schedule the page
// tracks by, with the first cue at 1.5 s and, where it differs by 200
// ms or more, at the clip's first labelled turn (cued as it began). The
// schedules: every frame (a fast tracker); pairs (the page's: two frames
// at a time, the detector on the later, the earlier read on its box);
// pairs with a stall of straightStall as the first turn comes back (from
// the frame after the server's furthest yaw in it) or, without a turn,
// from the cue; pairs with a slow lead-in (one pair in three before the
// cue, as a tracker reading eyelids on a slow phone).
func straightSchedules(c clip, p, s []reading) []recording {
	n := len(c.frames)
	sent := make([]int, n)
	for i := range sent {
		sent[i] = i * clipFrameMs
	}
	cues := []int{1500}
	if len(c.turns) > 0 && c.turns[0].from >= 0 {
		if at := c.turns[0].from * clipFrameMs; math.Abs(float64(at-1500)) >= 200 {
			cues = append(cues, at)
		}
	}
	own := func(i int) straightFrame {
		return straightFrame{At: sent[i], Found: p[i].found, Yaw: yawOr0(p[i]), Exact: true, Anchor: yawOr0(p[i]), i: i}
	}
	// carried is frame i read on frame i+1's detector box, with its yaw;
	// where the detector found no face on i+1, the tracker runs it on i.
	carried := func(i int) straightFrame {
		if !p[i+1].found {
			return own(i)
		}
		y := p[i+1].yaw
		if p[i].found {
			y = p[i].yaw
		}
		return straightFrame{At: sent[i], Found: true, Yaw: y, Anchor: p[i+1].yaw, i: i}
	}
	stallFrom := func(cue int) int {
		if len(c.turns) == 0 || c.turns[0].from < 0 {
			return cue / clipFrameMs
		}
		t := c.turns[0]
		peak := t.from
		for i := t.from; i <= t.to && i < n; i++ {
			if s[i].found && float64(t.side)*s[i].yaw > float64(t.side)*s[peak].yaw {
				peak = i
			}
		}
		return peak + 1
	}
	type schedule struct {
		name string
		// pair: whether the pair ending at frame i (odd) is tracked.
		pair func(i, cue int) bool
	}
	schedules := []schedule{
		{"every frame", nil},
		{"pairs", func(int, int) bool { return true }},
		{fmt.Sprintf("pairs, a %v stall", straightStall), func(i, cue int) bool {
			from := stallFrom(cue)
			stall := int(straightStall / (clipFrameMs * time.Millisecond))
			return i < from || i-1 >= from+stall
		}},
		{"pairs, a slow lead-in", func(i, cue int) bool { return sent[i] >= cue || i%6 == 1 }},
	}
	var recs []recording
	for _, cue := range cues {
		for _, sc := range schedules {
			r := recording{Sent: sent, Cue: cue, clip: c.name, schedule: sc.name}
			if sc.pair == nil {
				for i := range n {
					r.Frames = append(r.Frames, own(i))
				}
			} else {
				for i := 1; i < n; i += 2 {
					if sc.pair(i, cue) {
						r.Frames = append(r.Frames, carried(i-1), own(i))
					}
				}
			}
			// The comparison's key frames: the first tracked at or after
			// the cue and each labelled turn's start.
			mark := func(at int, key string) {
				for k := range r.Frames {
					if r.Frames[k].At >= at {
						if r.Frames[k].key == "" {
							r.Frames[k].key = key
						}
						return
					}
				}
			}
			mark(cue, "cue")
			for k, t := range c.turns {
				if t.from >= 0 {
					mark(t.from*clipFrameMs, fmt.Sprintf("turn %d", k+1))
				}
			}
			recs = append(recs, r)
		}
	}
	return recs
}

func yawOr0(r reading) float64 {
	if r.found {
		return r.yaw
	}
	return 0
}

// printStraight prints, per rule, |page − server| on every tracked frame
// and on the key frames (the cue, each turn's start), overall and by
// schedule, and today's over the baseline's.
func printStraight(side string, rules []string, recs []recording, got map[string][][]float64, serverAt map[string][]float64) {
	type tally struct{ all, keys []float64 }
	tallies := map[string]map[string]*tally{} // rule, schedule ("" all)
	worst := map[string]string{}
	worstBy := map[string]float64{}
	var todayOver []string // today's key frames over straightApart
	for _, rule := range rules {
		tallies[rule] = map[string]*tally{"": {}}
		for ri, r := range recs {
			sc := tallies[rule][r.schedule]
			if sc == nil {
				sc = &tally{}
				tallies[rule][r.schedule] = sc
			}
			for k, f := range r.Frames {
				srv := serverAt[r.clip][f.i]
				d := math.Abs(got[rule][ri][k] - srv)
				for _, t := range []*tally{tallies[rule][""], sc} {
					t.all = append(t.all, d)
					if f.key != "" {
						t.keys = append(t.keys, d)
					}
				}
				if f.key == "" {
					continue
				}
				at := fmt.Sprintf("%s, %s, cue at %d ms, %s (%d ms): page %.2f°, server %.2f°", r.clip, r.schedule, r.Cue, f.key, f.At, got[rule][ri][k], srv)
				if d > worstBy[rule] {
					worstBy[rule], worst[rule] = d, at
				}
				if rule == "today" && d > straightApart {
					todayOver = append(todayOver, at)
				}
			}
		}
	}
	over := func(v []float64) int {
		n := 0
		for _, d := range v {
			if d > straightApart {
				n++
			}
		}
		return n
	}
	stats := func(v []float64) string {
		return fmt.Sprintf("median %.2f° p90 %.2f° max %.2f°, over %g° %d of %d", median64or0(v), pct(v, 0.9), pct(v, 1), straightApart, over(v), len(v))
	}
	ratio := func(a, b []float64) string {
		q := func(x, y float64) string {
			if y == 0 {
				return "—"
			}
			return fmt.Sprintf("%.2f", x/y)
		}
		return fmt.Sprintf("median %s p90 %s max %s, over %s", q(median64or0(a), median64or0(b)), q(pct(a, 0.9), pct(b, 0.9)), q(pct(a, 1), pct(b, 1)), q(float64(over(a)), float64(over(b))))
	}
	names := map[string]string{"today": "today's rule (the frames sent counted)", "baseline": "baseline (" + straightBaseline + ": tracked frames weighted by time)", "candidate": "candidate (" + *straightCandidate + ")"}
	var schedules []string
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.schedule] {
			seen[r.schedule] = true
			schedules = append(schedules, r.schedule)
		}
	}
	fmt.Printf("  straight-ahead, the page's (Steps.straight after each tracked frame, replayed in node) against the server's (StraightAheads on that frame), %s: %d recordings (clips × first cue at 1.5 s or the first turn × schedules), |page − server|:\n", side, len(recs))
	for _, sc := range append([]string{""}, schedules...) {
		label := "all schedules"
		if sc != "" {
			label = sc
		}
		for _, rule := range rules {
			t := tallies[rule][sc]
			fmt.Printf("    %-22s %-62s every tracked frame: %s; at the cue and each turn's start: %s\n", label, names[rule], stats(t.all), stats(t.keys))
		}
		for _, q := range [][2]string{{"today", "baseline"}, {"candidate", "today"}} {
			if a, b := tallies[q[0]], tallies[q[1]]; a != nil && b != nil {
				fmt.Printf("    %-22s %-62s every tracked frame: %s; at the cue and each turn's start: %s\n", label, q[0]+" ÷ "+q[1], ratio(a[sc].all, b[sc].all), ratio(a[sc].keys, b[sc].keys))
			}
		}
	}
	for _, rule := range rules {
		if worst[rule] != "" {
			fmt.Printf("    furthest at a cue or turn's start, %s: %s\n", rule, worst[rule])
		}
	}
	for _, at := range todayOver {
		fmt.Printf("    over %g° at a cue or turn's start, today: %s\n", straightApart, at)
	}
	// Where the frames over the bound are: by clip, every schedule.
	fmt.Printf("    tracked frames over %g° by clip (%s):", straightApart, strings.Join(rules, "/"))
	var clips []string
	byClip := map[string]map[string][]float64{}
	for ri, r := range recs {
		if byClip[r.clip] == nil {
			byClip[r.clip] = map[string][]float64{}
			clips = append(clips, r.clip)
		}
		for _, rule := range rules {
			for k, f := range r.Frames {
				byClip[r.clip][rule] = append(byClip[r.clip][rule], math.Abs(got[rule][ri][k]-serverAt[r.clip][f.i]))
			}
		}
	}
	for _, c := range clips {
		var n []string
		for _, rule := range rules {
			n = append(n, fmt.Sprint(over(byClip[c][rule])))
		}
		fmt.Printf(" %s %s of %d;", c, strings.Join(n, "/"), len(byClip[c][rules[0]]))
	}
	fmt.Println()
}
