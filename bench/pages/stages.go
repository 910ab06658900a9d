package main

// What each stage of the tracker's own step costs (levers.ts, stages):
// on the page's thread at the CPU slowdown, frame by frame, the frame
// made a tensor (src/meshstep.ts, frameTensor), BlazeFace
// (verifier/web/src/blazebox.ts), the mesh and the eyelids. A frame with the detector costs the input, the detector
// and the mesh (and the eyelids where asked); one on a carried box the
// input and the mesh.

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"
)

var stageNames = []string{"frame to tensor", "detector", "mesh", "eyelids"}

func stageCosts(tctx context.Context, c clip) error {
	if err := decodeClip(tctx, c); err != nil {
		return err
	}
	got, err := chromedp.Run(tctx, chromedp.Evaluate[[][]float64](`L.stages()`, chromedp.EvalAwaitPromise))
	if err != nil {
		return err
	}
	if len(got) < 2 {
		return fmt.Errorf("stages: a face on %d of %s's %d frames", len(got), c.name, len(c.frames))
	}
	// The first frame (the models' first run on a new size) is not counted.
	got = got[1:]
	fmt.Printf("  %-56s on %s (%d frames, page's thread at %g×), median ms:", "own step by stage", c.name, len(got), cpuSlowdown)
	for k, name := range stageNames {
		var v []float64
		for _, g := range got {
			v = append(v, g[k])
		}
		fmt.Printf(" %s %.0f;", name, median64(v))
	}
	fmt.Println()
	return nil
}
