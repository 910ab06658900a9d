package main

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/idgate/idgate/verifier/face/liveness"
)

// cropsCompared prints how the signals of the same frames differ when
// the liveness analyser crops them one way (short: the short-range 128
// detector, named by what) rather than another (sigs: the engine's 256,
// named by than): per frame with a face on
// both, the yaw, the mean eye ratio and the descriptor (where both
// described the frame) apart (median, p90, max), and the frames where
// one found a face and the other none, or counted other people. The
// frames of live sequences and real faces at rest (the people the
// decisions must pass, or refuse on steps not done) by clip, then the
// frames only attacks show (photos, screens, splices); the frames of
// each group's largest yaw and descriptor gaps named.
func cropsCompared(seqs []sequence, sigs, short map[string]liveness.Signal, what, than string) {
	const attacksOnly = "attacks' frames only"
	group, where := map[string]string{}, map[string]string{}
	var order []string
	for _, s := range seqs {
		name := attacksOnly
		if s.class == "live" || s.class == realIdle {
			name = s.clip
			if name == "" {
				name = "foreman"
			}
		}
		for i, f := range s.frames {
			k := f.key()
			if _, ok := where[k]; !ok {
				where[k] = fmt.Sprintf("%q at %v", s.name, s.at(i).Round(time.Millisecond))
			}
			if g, ok := group[k]; ok && (g != attacksOnly || name == attacksOnly) {
				continue
			}
			group[k] = name
		}
	}
	for _, s := range seqs {
		for _, f := range s.frames {
			if g := group[f.key()]; g != attacksOnly && !slices.Contains(order, g) {
				order = append(order, g)
			}
		}
	}
	order = append(order, "", attacksOnly) // "": every live and at-rest frame
	fmt.Printf("the liveness analyser's signals with frames cropped by %s against %s, per distinct frame (median / p90 / max)\n", what, than)
	fmt.Printf("  %-22s %6s %-22s %-22s %-22s %-22s %s\n", "frames", "faces", "yaw apart °", "eye ratio apart", "the same ÷ the first's", "descriptor apart", "missed / only in the second / other count")
	for _, g := range order {
		var yaw, eye, rel, desc []float64
		worst := map[string]string{}
		worstAt := map[string]float64{}
		note := func(what string, d float64, k string) {
			if d > worstAt[what] {
				worstAt[what], worst[what] = d, k
			}
		}
		n, missed, extra, count := 0, 0, 0, 0
		for k, a := range sigs {
			if group[k] != g && (g != "" || group[k] == attacksOnly) {
				continue
			}
			n++
			b := short[k]
			switch {
			case a.Faces > 0 && b.Faces == 0:
				missed++
			case a.Faces == 0 && b.Faces > 0:
				extra++
			case a.Faces > 0:
				yaw = append(yaw, math.Abs(a.Pose.Yaw-b.Pose.Yaw))
				note("yaw", yaw[len(yaw)-1], k)
				d := math.Abs(a.Eyes.Mean() - b.Eyes.Mean())
				eye, rel = append(eye, d), append(rel, d/a.Eyes.Mean())
				if a.Descriptor != nil && b.Descriptor != nil {
					desc = append(desc, distance(a.Descriptor, b.Descriptor))
					note("descriptor", desc[len(desc)-1], k)
				}
			}
			if a.Faces != b.Faces && a.Faces > 0 && b.Faces > 0 {
				count++
			}
		}
		name := g
		if g == "" {
			name = "live and at rest, all"
		}
		three := func(v []float64, f string) string {
			if len(v) == 0 {
				return "-"
			}
			return fmt.Sprintf(f+" / "+f+" / "+f, pct(v, 0.5), pct(v, 0.9), pct(v, 1))
		}
		fmt.Printf("  %-22s %6d %-22s %-22s %-22s %-22s %d / %d / %d\n", fmt.Sprintf("%s (%d)", name, n), len(yaw),
			three(yaw, "%.2f"), three(eye, "%.3f"), three(rel, "%.3f"), three(desc, "%.3f"), missed, extra, count)
		if g == "" || g == attacksOnly {
			for _, gap := range []string{"yaw", "descriptor"} {
				if k, ok := worst[gap]; ok {
					fmt.Printf("    farthest %s: %s, yaw %+.1f°, %+.1f° in the second\n", gap, where[k], sigs[k].Pose.Yaw, short[k].Pose.Yaw)
				}
			}
		}
	}
}
