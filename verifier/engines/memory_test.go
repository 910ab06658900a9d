package engines_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The memory limit must stay well above what the engines keep live once
// every worker has examined a 12 MP front and back (its buffers grown):
// at or under the live heap the collector would run back to back.
func TestMemoryLimitAboveLiveHeap(t *testing.T) {
	e := loaded(t)
	img, _ := cardtest.Scene{FrameW: 4000, CardW: 2200, Aspect: card.ID1Aspect, RotationDeg: 7, Face: labeledFace(t, "sheldon/sheldon2.png"), Seed: 1}.Render()
	front := encodeJPEG(t, img)
	backImg, err := synth.Case{Name: "memory", Payload: aamvaFixtures(t)[0], EC: 4, Module: 6, FrameWidth: 4000, Seed: 2}.Render()
	if err != nil {
		t.Fatal(err)
	}
	back := encodeJPEG(t, backImg)
	var wg sync.WaitGroup
	for range 2 { // both workers of loaded's pool
		wg.Go(func() {
			if rep, err := e.Front(context.Background(), front); err != nil || len(rep.Problems) != 0 {
				t.Errorf("front: %v %v", err, rep.Problems)
			}
			if rep, err := e.Back(context.Background(), back); err != nil || len(rep.Problems) != 0 {
				t.Errorf("back: %v %v", err, rep.Problems)
			}
		})
	}
	wg.Wait()
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	got, limit := live[0].Value.Uint64(), e.MemoryLimit()
	t.Logf("live heap %d MB, memory limit %d MB", got>>20, limit>>20)
	if float64(got)*1.3 > float64(limit) {
		t.Errorf("live heap %d MB leaves less than 30%% headroom under the memory limit %d MB", got>>20, limit>>20)
	}
}
