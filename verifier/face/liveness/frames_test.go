package liveness

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
)

// The analysed Foreman frames (from, to, step), computed once per test
// binary: 14–100 hold the squints, the blink and a left and a right turn,
// every frame from 50 on so the blink is also seen at 30 fps and at the
// other 15 fps phase; 154–172 hold the widest turn. Only these are
// analysed to keep the run short.
var foremanRanges = [][3]int{{14, 48, 2}, {50, 100, 1}, {154, 172, 2}}

var (
	fixtureOnce sync.Once
	fixture     struct {
		an     *Analyzer
		byNum  map[int]Signal // Foreman frame number -> signal
		others map[string]Signal
		err    error
	}
)

// analyzer loads the models with the mesh-box describer (the face
// pipeline's aligned crop is not ready yet).
func analyzer(t testing.TB) *Analyzer {
	set := modelstest.Set(t)
	eng, err := face.Load(set.Dir, face.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	an, err := NewAnalyzer(set.ReadFile, EngineDescriber(eng.NewAnalyzer()), Defaults)
	if err != nil {
		t.Fatal(err)
	}
	return an
}

func foremanFile(t testing.TB, n int) []byte {
	data, err := os.ReadFile(testkit.Data(t, "testdata", "liveness", "foreman", fmt.Sprintf("f%03d.jpg", n)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// signals analyses the fixture frames once: Foreman frames and two other
// people from faces/labeled.
func signals(t *testing.T) (map[int]Signal, map[string]Signal) {
	t.Helper()
	// Skip (or fail under CI) before the Once: a skip inside it would leave
	// the fixture half-built for every later test.
	modelstest.Set(t)
	testkit.Data(t, "testdata", "liveness", "foreman")
	testkit.Data(t, "testdata", "faces")
	fixtureOnce.Do(func() {
		an := analyzer(t)
		fixture.an = an
		fixture.byNum = map[int]Signal{}
		for _, r := range foremanRanges {
			for n := r[0]; n <= r[1]; n += r[2] {
				s, err := an.Frame(Frame{Data: foremanFile(t, n)})
				if err != nil {
					fixture.err = err
					return
				}
				fixture.byNum[n] = s
			}
		}
		fixture.others = map[string]Signal{}
		for _, p := range []string{"sheldon/sheldon1.png", "howard/howard1.png"} {
			data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", "labeled", p))
			if err != nil {
				fixture.err = err
				return
			}
			s, err := an.Frame(Frame{Data: data})
			if err != nil {
				fixture.err = err
				return
			}
			fixture.others[p] = s
		}
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
	return fixture.byNum, fixture.others
}

// sequence re-times Foreman frames from..to (every 2nd) as a 15 fps
// stream starting at 0.
func sequence(t *testing.T, from, to int) []Signal { return sequenceStep(t, from, to, 2) }

// sequenceStep takes every step-th frame from..to, re-timed at 30/step fps.
func sequenceStep(t *testing.T, from, to, step int) []Signal {
	byNum, _ := signals(t)
	var out []Signal
	for n := from; n <= to; n += step {
		s, ok := byNum[n]
		if !ok {
			t.Fatalf("frame %d not in the fixture", n)
		}
		s.T = time.Duration(len(out)*step) * time.Second / 30
		out = append(out, s)
	}
	return out
}

// frameOf maps an index of a 15 fps sequence back to its Foreman frame.
func frameOf(from, i int) int { return from + 2*i }
