package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/idgate/idgate/verifier/face"
)

// passive prints the two passive models' scores (human's antispoof:
// real vs printed or replayed; liveness: live vs not; face.Face.Real and
// Live) on the frames of the real set's live windows and of the attacks
// made from them that show a face which is not a live person in front of
// the camera (a still or moved photo, a screen replay), and how far apart
// they lie: the share of attack frames scoring under the 5th percentile
// of the live frames. Every 2nd frame of a sequence is scored.
func passive(eng *face.Engine, src *source, js []judged) error {
	groups := []string{"live", attackStill, attackMoved, attackScreen, limitReplay}
	type scores struct{ real, live []float64 }
	by := map[string]*scores{}
	seen := map[string]bool{}
	an := eng.NewAnalyzer()
	for _, j := range js {
		if j.seq.clip == "" || !slices.Contains(groups, j.seq.class) {
			continue
		}
		g := by[j.seq.class]
		if g == nil {
			g = &scores{}
			by[j.seq.class] = g
		}
		for i := 0; i < len(j.seq.frames); i += 2 {
			f := j.seq.frames[i]
			k := j.seq.class + f.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			data, err := src.bytes(f)
			if err != nil {
				return err
			}
			img, err := an.Decode(data)
			if err != nil {
				return err
			}
			faces, err := an.Analyze(img)
			if err != nil {
				return err
			}
			if len(faces) == 0 {
				continue
			}
			g.real = append(g.real, float64(faces[0].Real))
			g.live = append(g.live, float64(faces[0].Live))
		}
	}
	live := by["live"]
	if live == nil {
		return fmt.Errorf("passive scores: no live frames")
	}
	fmt.Println("passive scores on the real set (p10 / median / p90; attack frames under the live frames' 5th percentile):")
	fmt.Printf("%-34s %6s %-30s %-30s\n", "", "frames", "antispoof (real)", "liveness (live)")
	cut := func(v []float64) float64 { return pct(v, 0.05) }
	for _, name := range groups {
		g := by[name]
		if g == nil {
			continue
		}
		cell := func(v, ref []float64) string {
			s := fmt.Sprintf("%.2f / %.2f / %.2f", pct(v, 0.1), pct(v, 0.5), pct(v, 0.9))
			if name != "live" {
				s += fmt.Sprintf("; %.0f %%", 100*below(v, cut(ref)))
			}
			return s
		}
		fmt.Printf("%-34s %6d %-30s %-30s\n", name, len(g.real), cell(g.real, live.real), cell(g.live, live.live))
	}
	return nil
}

// pct is the q-quantile of v (nearest rank).
func pct(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(math.Min(float64(len(s)-1), q*float64(len(s))))]
}

// below is the share of v under x.
func below(v []float64, x float64) float64 {
	n := 0
	for _, e := range v {
		if e < x {
			n++
		}
	}
	return float64(n) / float64(len(v))
}
