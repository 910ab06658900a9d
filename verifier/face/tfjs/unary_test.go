package tfjs

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// TestEmbeddingHeadOps runs MobileFaceNet's ops (PReLU as Relu + α·(x −
// Abs(x)), L2 normalisation by Square, Sum, Rsqrt; Squeeze) on a small
// graph and checks them against direct arithmetic, with an inner node
// kept as an output (Load's keep).
func TestEmbeddingHeadOps(t *testing.T) {
	var s shard
	s.f32(0.25)    // alpha/2
	s.i32(1, 2, 3) // sum axes
	list := func(v ...int) map[string]any {
		l := []string{}
		for _, x := range v {
			l = append(l, fmt.Sprint(x))
		}
		return map[string]any{"list": map[string]any{"i": l}}
	}
	keep := map[string]any{"keep_dims": map[string]any{"b": true}}
	nodes := []map[string]any{
		{"name": "x", "op": "Placeholder"},
		{"name": "half_alpha", "op": "Const"}, {"name": "axes", "op": "Const"},
		{"name": "relu", "op": "Relu", "input": []string{"x"}},
		{"name": "abs", "op": "Abs", "input": []string{"x"}},
		{"name": "sub", "op": "Sub", "input": []string{"x", "abs"}},
		{"name": "neg", "op": "Mul", "input": []string{"sub", "half_alpha"}},
		{"name": "prelu", "op": "Add", "input": []string{"relu", "neg"}},
		{"name": "sq", "op": "Square", "input": []string{"prelu"}},
		{"name": "sum", "op": "Sum", "input": []string{"sq", "axes"}, "attr": keep},
		{"name": "rsqrt", "op": "Rsqrt", "input": []string{"sum"}},
		{"name": "unit", "op": "Mul", "input": []string{"prelu", "rsqrt"}},
		{"name": "flat", "op": "Squeeze", "input": []string{"unit"}, "attr": map[string]any{"squeeze_dims": list(1, 2)}},
	}
	manifest := []map[string]any{{"paths": []string{"m.bin"}, "weights": []map[string]any{
		{"name": "half_alpha", "shape": []int{}, "dtype": "float32"},
		{"name": "axes", "shape": []int{3}, "dtype": "int32"},
	}}}
	mj, err := json.Marshal(map[string]any{"format": "graph-model", "modelTopology": map[string]any{"node": nodes}, "weightsManifest": manifest})
	if err != nil {
		t.Fatal(err)
	}
	read := reader(map[string][]byte{"m.json": mj, "m.bin": s.buf})
	m, err := Load(read, "m.json", "prelu")
	if err != nil {
		t.Fatal(err)
	}
	x := tensor.FromData([]float32{-2, 1, 3, -0.5}, 1, 1, 1, 4)
	sess := m.NewSession()
	if err := sess.Run(x); err != nil {
		t.Fatal(err)
	}
	wantPrelu := []float32{-1, 1, 3, -0.25} // α = 0.5 below zero
	var norm float64
	for _, v := range wantPrelu {
		norm += float64(v * v)
	}
	norm = math.Sqrt(norm)
	for name, want := range map[string][]float32{
		"prelu": wantPrelu,
		"flat":  {float32(-1 / norm), float32(1 / norm), float32(3 / norm), float32(-0.25 / norm)},
	} {
		got, err := sess.Output(name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Abs(float64(got.Data[i]-want[i])) > 1e-6 {
				t.Fatalf("%s = %v, want %v", name, got.Data, want)
			}
		}
	}
	if got, _ := sess.Output("flat"); fmt.Sprint(got.Shape) != "[1 4]" {
		t.Errorf("squeeze shape %v, want [1 4]", got.Shape)
	}
	if _, err := Load(read, "m.json", "nowhere"); err == nil {
		t.Error("Load kept an output that is no node")
	}
}
