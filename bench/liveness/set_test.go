package main

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
)

// The evaluation set as regression tests (the synthetic set and the real set): under
// Defaults every live sequence, Foreman's and every labelled window of the
// real sets, passes with each step done where it was labelled (the
// windows of knownRefused are refused, as they were), and every
// attack fails, for the reason its class should fail for, as does every
// real face of testdata/people not doing the step asked. Under
// SyntheticSetDefaults Foreman's live sequences still pass (that
// configuration's own calibration), which checks that the old rules are
// what the bench compares against.
//
// Every run judges every live sequence, still photo and replay; the
// attacks whose frames are generated one by one (photos moved and
// turned, faces spliced in or in view, screen replays) are shared, one
// in three of each class's cases on each set (source.share, cases:
// testkit.Share: the round is the commit's hash modulo 3, IDGATE_TEST_ROUND=r
// judges round r, IDGATE_TEST_SWEEPS=full every one). The whole set took 105 s of CPU on
// the 2-core CI machine, 92 s on a 2-core dev VM (2026-12-02, median of
// four runs), nearly all of it analysing its 1478 distinct frames (about
// 60 ms each: analyse already does each once) and generating the
// attacks' frames. Shared, a run analyses 846 to 1029 of them and took
// 50 s, or 66 s in the round (one in three) that films the phone session
// on a screen (177 frames); the whole set 88 s.
func TestEvaluationSet(t *testing.T) {
	set := modelstest.Set(t)
	src := &source{
		foreman: testkit.Data(t, "testdata", "liveness", "foreman"),
		faces:   testkit.Data(t, "testdata", "faces", "labeled"),
		real:    filepath.Dir(filepath.Dir(testkit.Data(t, "testdata", "liveness", "real", "grid_sbwe5n", "f030.jpg"))),
		cache:   map[string][]byte{},
		share:   3,
	}
	if people, err := testkit.FindData(testkit.RepoRoot(t), peopleSet...); err == nil {
		src.people = filepath.Dir(filepath.Dir(people))
	} else {
		// Reported as the SKIPPED line (a failure under CI=true once
		// the mirror holds the set); the other sets are still judged.
		t.Run("people", func(t *testing.T) { testkit.Data(t, peopleSet...) })
	}
	eng, err := face.Load(set.Dir, face.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	an, err := liveness.NewAnalyzer(set.ReadFile, liveness.EngineDescriber(eng.NewAnalyzer()), liveness.Defaults)
	if err != nil {
		t.Fatal(err)
	}
	seqs, err := buildSet(src)
	if err != nil {
		t.Fatal(err)
	}
	sigs, err := analyse(an, src, seqs, false)
	if err != nil {
		t.Fatal(err)
	}
	js := judge(seqs, []column{{cfg: liveness.Defaults, sigs: sigs}, {cfg: liveness.SyntheticSetDefaults, sigs: sigs}})
	want := map[string]liveness.Reason{
		attackStill:  liveness.StepsNotCompleted,
		attackMoved:  liveness.StepsNotCompleted,
		attackTurned: liveness.StepsNotCompleted,
		attackReplay: liveness.StepsNotCompleted,
		attackSplice: liveness.DifferentPerson,
		attackSecond: liveness.MultipleFaces,
		attackScreen: liveness.StepsNotCompleted,
	}
	live, classes, onSet := 0, map[string]int{}, map[string]map[bool]int{}
	for _, j := range js {
		r, before := j.results[0], j.results[1]
		if j.seq.class == "live" {
			live++
			if j.seq.refused != "" {
				if r.Live {
					t.Errorf("live %q now passes (was refused: %s): drop it from knownRefused", j.seq.name, j.seq.refused)
				} else if !slices.Contains(r.Failures, liveness.StepsNotCompleted) {
					t.Errorf("live %q (known refused: %s): failures %v, want %s", j.seq.name, j.seq.refused, r.Failures, liveness.StepsNotCompleted)
				}
				continue
			}
			if !r.Live {
				t.Errorf("live %q: failures %v steps %+v", j.seq.name, r.Failures, r.Steps)
				continue
			}
			for k, s := range r.Steps {
				if !j.seq.inPlace(k, s) {
					t.Errorf("live %q: step %d %s done at %d ms, labelled at frames %v", j.seq.name, k, s.Step, s.AtMS, j.seq.labels[k])
				}
			}
			if j.seq.clip == "" && !before.Live {
				t.Errorf("live %q fails under SyntheticSetDefaults: %v", j.seq.name, before.Failures)
			}
			continue
		}
		if j.seq.class == realIdle {
			if r.Live || !slices.Contains(r.Failures, liveness.StepsNotCompleted) {
				t.Errorf("real face not doing the step %q: live=%v failures %v, want %s", j.seq.name, r.Live, r.Failures, liveness.StepsNotCompleted)
			}
			continue
		}
		if j.seq.class == limitReplay {
			continue // what an active check cannot stop: measured, not asserted
		}
		classes[j.seq.class]++
		if onSet[j.seq.class] == nil {
			onSet[j.seq.class] = map[bool]int{}
		}
		onSet[j.seq.class][j.seq.clip != ""]++
		if r.Live || !slices.Contains(r.Failures, want[j.seq.class]) {
			t.Errorf("attack %s %q: live=%v failures %v, want %s", j.seq.class, j.seq.name, r.Live, r.Failures, want[j.seq.class])
		}
	}
	if live < 20 {
		t.Errorf("%d live sequences, want at least 20", live)
	}
	// At least three sequences a class is the whole set's count (under
	// IDGATE_TEST_SWEEPS=full); shared, a run judges at least one of
	// each class, on each set (Foreman's, the real set's) that has the
	// class.
	least := 1
	if testkit.FullSweeps() {
		least = 3
	}
	for _, c := range attackClasses {
		if classes[c] < least {
			t.Errorf("attack class %s: %d sequences, want at least %d", c, classes[c], least)
		}
	}
	for _, c := range []string{attackStill, attackMoved, attackReplay, attackSplice, attackSecond} {
		if onSet[c][false] == 0 || onSet[c][true] == 0 {
			t.Errorf("attack class %s: %d sequences on Foreman, %d on the real set, want some on each", c, onSet[c][false], onSet[c][true])
		}
	}
}
