package tfjs

import (
	"testing"

	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tensor"
)

func TestHumanModelsLoadAndRun(t *testing.T) {
	set := modelstest.Set(t)
	for _, c := range []struct {
		name    string
		in      []int
		outputs map[string][]int
	}{
		{"human/blazeface.json", []int{1, 256, 256, 3}, map[string][]int{"Identity": {1, 512, 1}, "Identity_1": {1, 384, 1}, "Identity_2": {1, 512, 16}, "Identity_3": {1, 384, 16}}},
		{"human/facemesh.json", []int{1, 192, 192, 3}, map[string][]int{"Identity": {1, 266}, "Identity_1": {1, 1}, "Identity_2": {1, 1404}}},
		{"human/iris.json", []int{1, 64, 64, 3}, map[string][]int{"Identity": {1, 1, 1, 228}}},
		{"human/antispoof.json", []int{1, 128, 128, 3}, map[string][]int{"Identity": {1, 1}}},
		{"human/liveness.json", []int{1, 32, 32, 3}, map[string][]int{"Identity": {1, 2}}},
	} {
		m, err := Load(set.ReadFile, c.name)
		if err != nil {
			t.Fatal(err)
		}
		s := m.NewSession()
		x := tensor.New(c.in...)
		for i := range x.Data {
			x.Data[i] = float32(i%255)/127.5 - 1
		}
		if err := s.Run(x); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for name, shape := range c.outputs {
			out, err := s.Output(name)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !equalInts(out.Shape, shape) {
				t.Errorf("%s %s: shape %v, want %v", c.name, name, out.Shape, shape)
			}
		}
		t.Logf("%s: %d nodes, %d buffers, outputs %v", c.name, len(m.nodes), m.plan.buffers, m.Outputs())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
