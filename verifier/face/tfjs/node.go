package tfjs

import (
	"fmt"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// kind is the operation a node runs.
type kind int

const (
	kConv kind = iota
	kDepthwise
	kBinary
	kAct
	kPrelu
	kSoftmax
	kMaxPool
	kAvgPool
	kPad
	kReshape
	kIdentity
	kMean
	kMatMul
	kConcat
	kUnary
	kSum
	kSqueeze
)

// node is a computed graph node with its attributes parsed once at load.
type node struct {
	name   string
	op     string
	kind   kind
	in     []int // value indices
	out    int   // value index
	binop  tensor.BinOp
	act    tensor.ActKind
	leak   float32
	stride [2]int
	dil    [2]int
	ksize  [2]int
	pad    string // SAME, VALID or EXPLICIT
	expl   tensor.Padding
	bias   bool // fused BiasAdd: the next extra input is the bias
	// residual: the last input is added before the activation
	// (fuseResiduals).
	residual bool
	transA   bool
	transB   bool
	keep     bool
	unary    unaryOp
	squeeze  []int // Squeeze: the dimensions to drop (none listed: every 1)
}

var binops = map[string]tensor.BinOp{
	"Add": tensor.OpAdd, "AddV2": tensor.OpAdd, "BiasAdd": tensor.OpAdd, "Sub": tensor.OpSub,
	"Mul": tensor.OpMul, "RealDiv": tensor.OpDiv, "Minimum": tensor.OpMin, "Maximum": tensor.OpMax,
}

var activations = map[string]tensor.ActKind{
	"Relu": tensor.ActRelu, "Relu6": tensor.ActRelu6, "Prelu": tensor.ActPrelu,
	"LeakyRelu": tensor.ActLeakyRelu, "Sigmoid": tensor.ActSigmoid, "Elu": tensor.ActElu,
}

func newNode(n nodeJSON, self int, in []int, values []value) (node, error) {
	nd := node{name: n.Name, op: n.Op, in: in, out: self, stride: [2]int{1, 1}, dil: [2]int{1, 1}}
	need := func(k int) error {
		if len(in) < k {
			return fmt.Errorf("node %q (%s): %d inputs, want at least %d: %w", n.Name, n.Op, len(in), k, ErrFormat)
		}
		return nil
	}
	var err error
	switch n.Op {
	case "Conv2D", "_FusedConv2D", "DepthwiseConv2dNative", "FusedDepthwiseConv2dNative":
		nd.kind = kConv
		if n.Op == "DepthwiseConv2dNative" || n.Op == "FusedDepthwiseConv2dNative" {
			nd.kind = kDepthwise
		}
		if err = need(2); err != nil {
			return nd, err
		}
		if err = nd.parseWindow(n.Attr, false); err != nil {
			return nd, err
		}
		err = nd.parseFused(n, 2)
	case "Add", "AddV2", "BiasAdd", "Sub", "Mul", "RealDiv", "Minimum", "Maximum":
		nd.kind, nd.binop = kBinary, binops[n.Op]
		err = need(2)
	case "Relu", "Relu6", "Sigmoid", "Elu", "LeakyRelu":
		nd.kind, nd.act = kAct, activations[n.Op]
		nd.leak = float32(n.Attr["alpha"].F)
		err = need(1)
	case "Prelu":
		nd.kind = kPrelu
		err = need(2)
	case "Softmax":
		nd.kind = kSoftmax
		err = need(1)
	case "MaxPool", "AvgPool":
		nd.kind = kMaxPool
		if n.Op == "AvgPool" {
			nd.kind = kAvgPool
		}
		if err = need(1); err == nil {
			err = nd.parseWindow(n.Attr, true)
		}
	case "Pad", "PadV2":
		nd.kind = kPad
		if err = need(2); err == nil {
			err = needInt(n, values, in[1])
		}
	case "Reshape":
		nd.kind = kReshape
		if err = need(2); err == nil {
			err = needInt(n, values, in[1])
		}
	case "Identity":
		nd.kind = kIdentity
		err = need(1)
	case "Mean":
		nd.kind, nd.keep = kMean, n.Attr["keep_dims"].B
		if err = need(2); err == nil {
			err = needInt(n, values, in[1])
		}
	case "MatMul", "_FusedMatMul":
		nd.kind = kMatMul
		nd.transA, nd.transB = n.Attr["transpose_a"].B, n.Attr["transpose_b"].B
		if err = need(2); err == nil {
			err = nd.parseFused(n, 2)
		}
	case "Abs", "Square", "Rsqrt":
		nd.kind, nd.unary = kUnary, unaries[n.Op]
		err = need(1)
	case "Sum":
		nd.kind, nd.keep = kSum, n.Attr["keep_dims"].B
		if err = need(2); err == nil {
			err = needInt(n, values, in[1])
		}
	case "Squeeze":
		nd.kind, nd.squeeze = kSqueeze, n.Attr.ints("squeeze_dims")
		err = need(1)
	case "ConcatV2":
		nd.kind = kConcat
		if err = need(2); err == nil {
			err = needInt(n, values, in[len(in)-1])
		}
	default:
		return nd, fmt.Errorf("node %q: unsupported op %s: %w", n.Name, n.Op, ErrFormat)
	}
	return nd, err
}

// needInt checks that an operand (shape, paddings, axes) is an int constant:
// we do not support shapes computed at run time.
func needInt(n nodeJSON, values []value, v int) error {
	if !values[v].isInt {
		return fmt.Errorf("node %q (%s): operand %q must be an int32 constant: %w", n.Name, n.Op, values[v].name, ErrFormat)
	}
	return nil
}

func (nd *node) parseWindow(a attrs, pool bool) error {
	var err error
	if nd.stride[0], nd.stride[1], err = a.hw("strides", 1); err != nil {
		return fmt.Errorf("node %q: %w", nd.name, err)
	}
	if nd.dil[0], nd.dil[1], err = a.hw("dilations", 1); err != nil {
		return fmt.Errorf("node %q: %w", nd.name, err)
	}
	if pool {
		if nd.ksize[0], nd.ksize[1], err = a.hw("ksize", 0); err != nil || nd.ksize[0] == 0 {
			return fmt.Errorf("node %q: bad or missing ksize: %w", nd.name, ErrFormat)
		}
	}
	if nd.pad, err = a.str("padding"); err != nil {
		return fmt.Errorf("node %q: %w", nd.name, err)
	}
	if f, _ := a.str("data_format"); f != "" && f != "NHWC" {
		return fmt.Errorf("node %q: data_format %s: only NHWC is supported: %w", nd.name, f, ErrFormat)
	}
	switch nd.pad {
	case "SAME", "VALID":
	case "EXPLICIT":
		e := a.ints("explicit_paddings")
		if len(e) != 8 || e[2] < 0 || e[3] < 0 || e[4] < 0 || e[5] < 0 {
			return fmt.Errorf("node %q: explicit_paddings %v: %w", nd.name, e, ErrFormat)
		}
		nd.expl = tensor.Padding{Top: e[2], Bottom: e[3], Left: e[4], Right: e[5]}
	default:
		return fmt.Errorf("node %q: padding %q: %w", nd.name, nd.pad, ErrFormat)
	}
	return nil
}

// parseFused reads fused_ops: an optional BiasAdd then an optional
// activation, each taking its extra operand (bias, Prelu alpha) in order
// after the first fixed inputs.
func (nd *node) parseFused(n nodeJSON, fixed int) error {
	ops, err := n.Attr.strs("fused_ops")
	if err != nil {
		return fmt.Errorf("node %q: %w", nd.name, err)
	}
	extra := 0
	for i, op := range ops {
		switch {
		case op == "BiasAdd" && i == 0:
			nd.bias = true
			extra++
		case activations[op] != tensor.ActNone && i == len(ops)-1:
			nd.act = activations[op]
			nd.leak = float32(n.Attr["leakyrelu_alpha"].F)
			if op == "Prelu" {
				extra++
			}
		default:
			return fmt.Errorf("node %q: unsupported fused ops %v: %w", nd.name, ops, ErrFormat)
		}
	}
	if len(nd.in) != fixed+extra {
		return fmt.Errorf("node %q: fused ops %v need %d inputs, got %d: %w", nd.name, ops, fixed+extra, len(nd.in), ErrFormat)
	}
	return nil
}
