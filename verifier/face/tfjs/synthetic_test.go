package tfjs

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// A small graph exercising the loader end to end: float32, uint8-quantized
// and float16 weights, int32 shape constants, a fused conv with bias+prelu,
// reshape, fused matmul, softmax, and a second output through max pool and
// mean.

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

type shard struct{ buf []byte }

func (s *shard) f32(vs ...float32) {
	for _, v := range vs {
		s.buf = binary.LittleEndian.AppendUint32(s.buf, math.Float32bits(v))
	}
}

func (s *shard) i32(vs ...int32) {
	for _, v := range vs {
		s.buf = binary.LittleEndian.AppendUint32(s.buf, uint32(v))
	}
}

func synthetic() (modelJSON []byte, bin []byte, filter, bias, alpha, w, wb []float32) {
	var s shard
	filter = make([]float32, 3*3*2*3)
	for i := range filter {
		filter[i] = float32(i%7)/7 - 0.4
	}
	s.f32(filter...)
	// bias: uint8 q with scale 0.5, min -1 → q 0, 3, 4 → -1, 0.5, 1
	s.buf = append(s.buf, 0, 3, 4)
	bias = []float32{-1, 0.5, 1}
	// alpha: float16 0.5, -0.25, 2
	s.buf = binary.LittleEndian.AppendUint16(s.buf, 0x3800)
	s.buf = binary.LittleEndian.AppendUint16(s.buf, 0xB400)
	s.buf = binary.LittleEndian.AppendUint16(s.buf, 0x4000)
	alpha = []float32{0.5, -0.25, 2}
	s.i32(-1, 3) // reshape target
	s.i32(1, 2)  // mean axes
	w = []float32{1, -1, 0.5, 2, -0.5, 0.25}
	s.f32(w...)
	wb = []float32{0.1, -0.2}
	s.f32(wb...)

	str := func(v string) map[string]any { return map[string]any{"s": b64(v)} }
	list := func(v ...int) map[string]any {
		l := []string{}
		for _, x := range v {
			l = append(l, fmt.Sprint(x))
		}
		return map[string]any{"list": map[string]any{"i": l}}
	}
	nodes := []map[string]any{
		// listed out of order on purpose: the loader must sort
		{"name": "probs", "op": "Softmax", "input": []string{"fc"}},
		{"name": "x", "op": "Placeholder", "attr": map[string]any{"shape": map[string]any{"shape": map[string]any{
			"dim": []map[string]any{{"size": "-1"}, {"size": "4"}, {"size": "4"}, {"size": "2"}}}}}},
		{"name": "filter", "op": "Const"}, {"name": "bias", "op": "Const"}, {"name": "alpha", "op": "Const"},
		{"name": "shape", "op": "Const"}, {"name": "axes", "op": "Const"}, {"name": "w", "op": "Const"}, {"name": "wb", "op": "Const"},
		{"name": "conv", "op": "_FusedConv2D", "input": []string{"x", "filter", "bias", "alpha:0"}, "attr": map[string]any{
			"strides": list(1, 1, 1, 1), "padding": str("SAME"), "data_format": str("NHWC"),
			"fused_ops": map[string]any{"list": map[string]any{"s": []string{b64("BiasAdd"), b64("Prelu")}}}, "num_args": map[string]any{"i": "2"}}},
		{"name": "flat", "op": "Reshape", "input": []string{"conv", "shape", "^x"}},
		{"name": "fc", "op": "_FusedMatMul", "input": []string{"flat", "w", "wb"}, "attr": map[string]any{
			"transpose_a": map[string]any{"b": false}, "transpose_b": map[string]any{"b": false},
			"fused_ops": map[string]any{"list": map[string]any{"s": []string{b64("BiasAdd")}}}}},
		{"name": "pool", "op": "MaxPool", "input": []string{"conv"}, "attr": map[string]any{
			"ksize": list(1, 2, 2, 1), "strides": list(1, 2, 2, 1), "padding": str("VALID")}},
		{"name": "mean", "op": "Mean", "input": []string{"pool", "axes"}, "attr": map[string]any{"keep_dims": map[string]any{"b": false}}},
	}
	q := func(d string, scale, min float64) map[string]any {
		return map[string]any{"dtype": d, "scale": scale, "min": min}
	}
	manifest := []map[string]any{{
		"paths": []string{"m.bin"},
		"weights": []map[string]any{
			{"name": "filter", "shape": []int{3, 3, 2, 3}, "dtype": "float32"},
			{"name": "bias", "shape": []int{3}, "dtype": "float32", "quantization": q("uint8", 0.5, -1)},
			{"name": "alpha", "shape": []int{3}, "dtype": "float32", "quantization": map[string]any{"dtype": "float16"}},
			{"name": "shape", "shape": []int{2}, "dtype": "int32"},
			{"name": "axes", "shape": []int{2}, "dtype": "int32"},
			{"name": "w", "shape": []int{3, 2}, "dtype": "float32"},
			{"name": "wb", "shape": []int{2}, "dtype": "float32"},
		},
	}}
	modelJSON, err := json.Marshal(map[string]any{"format": "graph-model", "modelTopology": map[string]any{"node": nodes}, "weightsManifest": manifest})
	if err != nil {
		panic(err)
	}
	return modelJSON, s.buf, filter, bias, alpha, w, wb
}

func reader(files map[string][]byte) ReadFunc {
	return func(name string) ([]byte, error) {
		b, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("no file %s", name)
		}
		return b, nil
	}
}

func TestSyntheticGraphMatchesDirectComputation(t *testing.T) {
	mj, bin, filter, bias, alpha, w, wb := synthetic()
	m, err := Load(reader(map[string][]byte{"d/m.json": mj, "d/m.bin": bin}), "d/m.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Outputs(); strings.Join(got, ",") != "mean,probs" {
		t.Fatalf("outputs %v", got)
	}
	if got := m.InputShape(0); fmt.Sprint(got) != "[-1 4 4 2]" {
		t.Fatalf("input shape %v, declared [-1 4 4 2]", got)
	}
	x := tensor.New(1, 4, 4, 2)
	for i := range x.Data {
		x.Data[i] = float32(i%5) - 2
	}
	// Direct computation with the tensor package.
	var ws tensor.Workspace
	conv, fc, probs, pool, mean := &tensor.Tensor{}, &tensor.Tensor{}, &tensor.Tensor{}, &tensor.Tensor{}, &tensor.Tensor{}
	p := tensor.ConvParams{Pad: tensor.SamePadding(4, 4, 3, 3, 1, 1, 1, 1), Act: tensor.Activation{Kind: tensor.ActPrelu, Alpha: alpha}}
	if err := tensor.Conv2D(&ws, conv, x, tensor.FromData(filter, 3, 3, 2, 3), bias, p); err != nil {
		t.Fatal(err)
	}
	flat := tensor.FromData(conv.Data, 16, 3)
	if err := tensor.MatMul(&ws, fc, flat, tensor.FromData(w, 3, 2), false, false, wb, tensor.Activation{}); err != nil {
		t.Fatal(err)
	}
	tensor.Softmax(probs, fc)
	if err := tensor.MaxPool(pool, conv, tensor.PoolParams{KH: 2, KW: 2, StrideH: 2, StrideW: 2}); err != nil {
		t.Fatal(err)
	}
	if err := tensor.Mean(mean, pool, []int{1, 2}, false); err != nil {
		t.Fatal(err)
	}

	s := m.NewSession()
	for run := range 2 { // the second run reuses every buffer
		if err := s.Run(x); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]*tensor.Tensor{"probs": probs, "mean": mean} {
			got, err := s.Output(name)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Shape) != fmt.Sprint(want.Shape) {
				t.Fatalf("run %d %s: shape %v, want %v", run, name, got.Shape, want.Shape)
			}
			for i := range want.Data {
				if math.Abs(float64(got.Data[i]-want.Data[i])) > 1e-6 {
					t.Fatalf("run %d %s[%d] = %v, want %v", run, name, i, got.Data[i], want.Data[i])
				}
			}
		}
	}
	if a := testing.AllocsPerRun(5, func() { _ = s.Run(x) }); a != 0 {
		t.Errorf("steady-state Run allocates %v times", a)
	}
	if _, err := s.Output("conv"); err == nil {
		t.Error("Output accepted an internal node")
	}
	if err := s.Run(); err == nil {
		t.Error("Run accepted a missing input")
	}
}

func TestLoadRejectsBrokenModels(t *testing.T) {
	mj, bin, _, _, _, _, _ := synthetic()
	var doc map[string]any
	if err := json.Unmarshal(mj, &doc); err != nil {
		t.Fatal(err)
	}
	nodes := doc["modelTopology"].(map[string]any)["node"].([]any)
	edit := func(f func(nodes []any) []any) []byte {
		cp := map[string]any{}
		for k, v := range doc {
			cp[k] = v
		}
		fresh := make([]any, len(nodes))
		for i, n := range nodes {
			m := map[string]any{}
			for k, v := range n.(map[string]any) {
				m[k] = v
			}
			fresh[i] = m
		}
		cp["modelTopology"] = map[string]any{"node": f(fresh)}
		b, _ := json.Marshal(cp)
		return b
	}
	cases := map[string]struct {
		json []byte
		bin  []byte
	}{
		"truncated shard": {mj, bin[:len(bin)-3]},
		"not json":        {[]byte("{"), bin},
		"unknown op": {edit(func(n []any) []any {
			n[0].(map[string]any)["op"] = "Gather"
			return n
		}), bin},
		"unknown input": {edit(func(n []any) []any {
			n[0].(map[string]any)["input"] = []string{"nope"}
			return n
		}), bin},
		"second port": {edit(func(n []any) []any {
			n[0].(map[string]any)["input"] = []string{"fc:1"}
			return n
		}), bin},
		"cycle": {edit(func(n []any) []any {
			return append(n, map[string]any{"name": "a", "op": "Relu", "input": []string{"b"}}, map[string]any{"name": "b", "op": "Relu", "input": []string{"a"}})
		}), bin},
		"const without data": {edit(func(n []any) []any {
			return append(n, map[string]any{"name": "ghost", "op": "Const"})
		}), bin},
		"float shape operand": {edit(func(n []any) []any {
			n[10].(map[string]any)["input"] = []string{"conv", "bias"}
			return n
		}), bin},
	}
	for name, c := range cases {
		_, err := Load(reader(map[string][]byte{"m.json": c.json, "m.bin": c.bin}), "m.json")
		if err == nil {
			t.Errorf("%s: loaded", name)
			continue
		}
		if name != "truncated shard" && !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v does not wrap ErrFormat", name, err)
		}
	}
}

func TestHalfToFloat(t *testing.T) {
	for h, want := range map[uint16]float32{
		0x3c00: 1, 0xc000: -2, 0x3555: 0.33325195, 0x0001: 5.9604645e-8, 0x7bff: 65504, 0x0000: 0, 0x8000: float32(math.Copysign(0, -1)),
	} {
		if got := halfToFloat(h); got != want {
			t.Errorf("halfToFloat(%#04x) = %v, want %v", h, got, want)
		}
	}
	if !math.IsInf(float64(halfToFloat(0x7c00)), 1) || !math.IsNaN(float64(halfToFloat(0x7e00))) {
		t.Error("inf/nan not preserved")
	}
}

// FuzzLoad feeds arbitrary model.json text (with the synthetic shard) to the
// loader and, when it loads, runs it: neither may panic.
func FuzzLoad(f *testing.F) {
	mj, bin, _, _, _, _, _ := synthetic()
	f.Add(mj)
	f.Add([]byte(`{"modelTopology":{"node":[{"name":"x","op":"Placeholder"},{"name":"y","op":"Relu","input":["x"]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(reader(map[string][]byte{"m.json": data, "m.bin": bin}), "m.json")
		if err != nil {
			return
		}
		in := make([]*tensor.Tensor, m.NumInputs())
		for i := range in {
			in[i] = tensor.New(1, 4, 4, 2)
		}
		_ = m.NewSession().Run(in...)
	})
}
