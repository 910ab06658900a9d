package tfjs

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// TestResidualFusion builds three residual block tails and checks which
// are fused and that the graph still computes the same as the operations
// run one by one:
//
//	r1 = Prelu(x + conv1(dw(x)))    fused (conv's residual from the Add's other side)
//	r2 = Relu(conv2(r1) + bvec)     fused; bvec [4] broadcasts, so at run time the
//	                                session falls back to the unfused add
//	out = Relu(conv3(r2) + r2)      not fused: conv3 also feeds the output "side"
func TestResidualFusion(t *testing.T) {
	var s shard
	weights := []map[string]any{}
	vals := map[string][]float32{}
	add := func(name string, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32((i*7+len(name)*3)%11)/11 - 0.45
		}
		s.f32(v...)
		vals[name] = v
		weights = append(weights, map[string]any{"name": name, "shape": shape, "dtype": "float32"})
	}
	add("dwf", 3, 3, 4, 1)
	for _, k := range []string{"1", "2", "3"} {
		add("f"+k, 1, 1, 4, 4)
		add("b"+k, 4)
	}
	add("alpha", 4)
	add("bvec", 4)
	str := func(v string) map[string]any { return map[string]any{"s": b64(v)} }
	ones := map[string]any{"list": map[string]any{"i": []string{"1", "1", "1", "1"}}}
	conv := func(name, in, k string) map[string]any {
		return map[string]any{"name": name, "op": "_FusedConv2D", "input": []string{in, "f" + k, "b" + k}, "attr": map[string]any{
			"strides": ones, "padding": str("VALID"),
			"fused_ops": map[string]any{"list": map[string]any{"s": []string{b64("BiasAdd")}}}}}
	}
	nodes := []map[string]any{
		{"name": "x", "op": "Placeholder"},
		{"name": "dwf", "op": "Const"}, {"name": "f1", "op": "Const"}, {"name": "b1", "op": "Const"},
		{"name": "f2", "op": "Const"}, {"name": "b2", "op": "Const"}, {"name": "f3", "op": "Const"}, {"name": "b3", "op": "Const"},
		{"name": "alpha", "op": "Const"}, {"name": "bvec", "op": "Const"},
		{"name": "dw", "op": "DepthwiseConv2dNative", "input": []string{"x", "dwf"}, "attr": map[string]any{"strides": ones, "padding": str("SAME")}},
		conv("c1", "dw", "1"),
		{"name": "add1", "op": "AddV2", "input": []string{"x", "c1"}},
		{"name": "r1", "op": "Prelu", "input": []string{"add1", "alpha"}},
		conv("c2", "r1", "2"),
		{"name": "add2", "op": "AddV2", "input": []string{"c2", "bvec"}},
		{"name": "r2", "op": "Relu", "input": []string{"add2"}},
		conv("c3", "r2", "3"),
		{"name": "add3", "op": "AddV2", "input": []string{"c3", "r2"}},
		{"name": "out", "op": "Relu", "input": []string{"add3"}},
		{"name": "side", "op": "Identity", "input": []string{"c3"}},
	}
	mj, err := json.Marshal(map[string]any{"format": "graph-model", "modelTopology": map[string]any{"node": nodes},
		"weightsManifest": []map[string]any{{"paths": []string{"m.bin"}, "weights": weights}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(reader(map[string][]byte{"d/m.json": mj, "d/m.bin": s.buf}), "d/m.json")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[kind]int{}
	fusedConvs := 0
	for _, nd := range m.nodes {
		kinds[nd.kind]++
		if nd.residual {
			fusedConvs++
		}
	}
	if fusedConvs != 2 || kinds[kBinary] != 1 || kinds[kAct] != 1 || kinds[kPrelu] != 0 || kinds[kConv] != 3 {
		t.Fatalf("after fusion: %d convs with a residual, kinds %v", fusedConvs, kinds)
	}

	x := tensor.New(1, 5, 5, 4)
	for i := range x.Data {
		x.Data[i] = float32(i%9)/4 - 1
	}
	// One by one with the tensor package.
	var ws tensor.Workspace
	w := func(name string, shape ...int) *tensor.Tensor { return tensor.FromData(vals[name], shape...) }
	step := func(dst *tensor.Tensor, err error) *tensor.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return dst
	}
	conv1x1 := func(in *tensor.Tensor, k string) *tensor.Tensor {
		out := &tensor.Tensor{}
		return step(out, tensor.Conv2D(&ws, out, in, w("f"+k, 1, 1, 4, 4), vals["b"+k], tensor.ConvParams{}))
	}
	binary := func(a, b *tensor.Tensor) *tensor.Tensor {
		out := &tensor.Tensor{}
		return step(out, tensor.Binary(out, a, b, tensor.OpAdd))
	}
	activate := func(in *tensor.Tensor, act tensor.Activation) *tensor.Tensor {
		out := &tensor.Tensor{}
		return step(out, tensor.Apply(out, in, act))
	}
	dw := &tensor.Tensor{}
	step(dw, tensor.DepthwiseConv2D(&ws, dw, x, w("dwf", 3, 3, 4, 1), nil, tensor.ConvParams{Pad: tensor.SamePadding(5, 5, 3, 3, 1, 1, 1, 1)}))
	r1 := activate(binary(x, conv1x1(dw, "1")), tensor.Activation{Kind: tensor.ActPrelu, Alpha: vals["alpha"]})
	r2 := activate(binary(conv1x1(r1, "2"), w("bvec", 4)), tensor.Activation{Kind: tensor.ActRelu})
	c3 := conv1x1(r2, "3")
	want := map[string]*tensor.Tensor{"out": activate(binary(c3, r2), tensor.Activation{Kind: tensor.ActRelu}), "side": c3}

	sess := m.NewSession()
	if err := sess.Run(x); err != nil {
		t.Fatal(err)
	}
	for name, wt := range want {
		got, err := sess.Output(name)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got.Shape) != fmt.Sprint(wt.Shape) {
			t.Fatalf("%s: shape %v, want %v", name, got.Shape, wt.Shape)
		}
		for i := range wt.Data {
			if math.Abs(float64(got.Data[i]-wt.Data[i])) > 1e-5 {
				t.Fatalf("%s[%d] = %v, want %v", name, i, got.Data[i], wt.Data[i])
			}
		}
	}
}
