package tfjs

import "github.com/idgate/idgate/verifier/face/tensor"

// fuseResiduals rewrites each residual block's tail — a convolution whose
// only reader is an Add, whose only reader is a Relu or Prelu — into the
// convolution alone, with the Add's other operand as a residual and the
// activation fused into its epilogue: one pass over the block's output
// instead of three (the mobile face models end every block this way:
// blazeface 31, facemesh 24, iris 26 times). The fused node runs where
// the activation ran, after both operands of the Add are computed.
func fuseResiduals(m *Model, outputOf map[int]bool) {
	readers := make([][]int, len(m.values)) // value → nodes reading it
	for i, nd := range m.nodes {
		for _, in := range nd.in {
			readers[in] = append(readers[in], i)
		}
	}
	only := func(v int) (int, bool) {
		if outputOf[v] || len(readers[v]) != 1 {
			return 0, false
		}
		return readers[v][0], true
	}
	drop := make([]bool, len(m.nodes))
	for ai := range m.nodes {
		add := &m.nodes[ai]
		if add.kind != kBinary || add.binop != tensor.OpAdd || len(add.in) != 2 || add.in[0] == add.in[1] {
			continue
		}
		acti, ok := only(add.out)
		if !ok {
			continue
		}
		act := &m.nodes[acti]
		if act.kind != kPrelu && (act.kind != kAct || act.act != tensor.ActRelu) {
			continue
		}
		for k, v := range add.in {
			ci := m.values[v].node
			if ci < 0 || drop[ci] {
				continue
			}
			conv := &m.nodes[ci]
			if r, ok := only(v); !ok || r != ai || conv.kind != kConv || conv.act != tensor.ActNone || conv.residual {
				continue
			}
			fused := *conv
			fused.in = append([]int(nil), conv.in...)
			fused.act = tensor.ActRelu
			if act.kind == kPrelu {
				fused.act = tensor.ActPrelu
				fused.in = append(fused.in, act.in[1]) // alpha
			}
			fused.in = append(fused.in, add.in[1-k])
			fused.residual, fused.out = true, act.out
			m.nodes[acti] = fused
			drop[ci], drop[ai] = true, true
			break
		}
	}
	kept := m.nodes[:0]
	for i, nd := range m.nodes {
		if !drop[i] {
			kept = append(kept, nd)
		}
	}
	m.nodes = kept
	for i := range m.values {
		m.values[i].node = -1
	}
	for i, nd := range m.nodes {
		m.values[nd.out].node = i
	}
}
