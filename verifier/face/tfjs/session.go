package tfjs

import (
	"errors"
	"fmt"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// Session runs a Model with its own buffers; reuse one Session for many
// runs (nothing is allocated once shapes repeat). Not for concurrent use.
type Session struct {
	m    *Model
	ws   tensor.Workspace
	vals []*tensor.Tensor // per value: const, input, buffer or alias view
	tmp  []*tensor.Tensor // operand list for Concat
}

// NewSession prepares buffers for m.
func (m *Model) NewSession() *Session {
	s := &Session{m: m, vals: make([]*tensor.Tensor, len(m.values))}
	bufs := make([]*tensor.Tensor, m.plan.buffers)
	for i := range bufs {
		bufs[i] = &tensor.Tensor{}
	}
	for i, v := range m.values {
		switch {
		case v.konst != nil:
			s.vals[i] = v.konst
		case m.plan.alias[i] >= 0:
			s.vals[i] = &tensor.Tensor{}
		case m.plan.phys[i] >= 0:
			s.vals[i] = bufs[m.plan.phys[i]]
		}
	}
	return s
}

// Run executes the graph on the inputs (one per Placeholder, in order).
func (s *Session) Run(inputs ...*tensor.Tensor) error {
	if len(inputs) != len(s.m.inputs) {
		return fmt.Errorf("run: %d inputs, model takes %d", len(inputs), len(s.m.inputs))
	}
	for i, v := range s.m.inputs {
		s.vals[v] = inputs[i]
	}
	for i := range s.m.nodes {
		nd := &s.m.nodes[i]
		if err := s.exec(nd); err != nil {
			return fmt.Errorf("run %s (%s): %w", nd.name, nd.op, err)
		}
	}
	return nil
}

// Output returns a named output of the last Run; it stays valid until the
// next Run.
func (s *Session) Output(name string) (*tensor.Tensor, error) {
	i, ok := s.m.outputs[name]
	if !ok {
		return nil, fmt.Errorf("output %q: not an output of this model (have %v)", name, s.m.names)
	}
	return s.vals[i], nil
}

func (s *Session) in(nd *node, k int) (*tensor.Tensor, error) {
	t := s.vals[nd.in[k]]
	if t == nil {
		return nil, fmt.Errorf("operand %q is an int constant where a tensor is needed", s.m.values[nd.in[k]].name)
	}
	return t, nil
}

func (s *Session) ints(nd *node, k int) []int { return s.m.values[nd.in[k]].ints }

func (s *Session) exec(nd *node) error {
	out := s.vals[nd.out]
	x, err := s.in(nd, 0)
	if err != nil {
		return err
	}
	switch nd.kind {
	case kConv, kDepthwise:
		return s.conv(nd, out, x)
	case kMatMul:
		w, err := s.in(nd, 1)
		if err != nil {
			return err
		}
		bias, act, err := s.fused(nd, 2)
		if err != nil {
			return err
		}
		return tensor.MatMul(&s.ws, out, x, w, nd.transA, nd.transB, bias, act)
	case kBinary:
		y, err := s.in(nd, 1)
		if err != nil {
			return err
		}
		return tensor.Binary(out, x, y, nd.binop)
	case kAct:
		return tensor.Apply(out, x, tensor.Activation{Kind: nd.act, Leak: nd.leak})
	case kPrelu:
		alpha, err := s.in(nd, 1)
		if err != nil {
			return err
		}
		return tensor.Apply(out, x, tensor.Activation{Kind: tensor.ActPrelu, Alpha: alpha.Data})
	case kSoftmax:
		tensor.Softmax(out, x)
		return nil
	case kMaxPool, kAvgPool:
		return s.pool(nd, out, x)
	case kPad:
		return s.padOp(nd, out, x)
	case kReshape:
		return reshape(out, x, s.ints(nd, 1))
	case kIdentity:
		out.Shape = append(out.Shape[:0], x.Shape...)
		out.Data = x.Data
		return nil
	case kMean:
		return tensor.Mean(out, x, s.ints(nd, 1), nd.keep)
	case kSum:
		return sum(out, x, s.ints(nd, 1), nd.keep)
	case kUnary:
		applyUnary(out, x, nd.unary)
		return nil
	case kSqueeze:
		return squeeze(out, x, nd.squeeze)
	case kConcat:
		axis := s.ints(nd, len(nd.in)-1)
		if len(axis) != 1 {
			return fmt.Errorf("concat axis %v is not a scalar", axis)
		}
		s.tmp = s.tmp[:0]
		for k := range len(nd.in) - 1 {
			t, err := s.in(nd, k)
			if err != nil {
				return err
			}
			s.tmp = append(s.tmp, t)
		}
		return tensor.Concat(out, s.tmp, axis[0])
	}
	return fmt.Errorf("no kernel for kind %d", nd.kind)
}

// fused returns the fused bias and activation whose operands start at
// input k.
func (s *Session) fused(nd *node, k int) ([]float32, tensor.Activation, error) {
	var bias []float32
	act := tensor.Activation{Kind: nd.act, Leak: nd.leak}
	if nd.bias {
		b, err := s.in(nd, k)
		if err != nil {
			return nil, act, err
		}
		bias, k = b.Data, k+1
	}
	if nd.act == tensor.ActPrelu {
		a, err := s.in(nd, k)
		if err != nil {
			return nil, act, err
		}
		act.Alpha = a.Data
	}
	return bias, act, nil
}

func (s *Session) conv(nd *node, out, x *tensor.Tensor) error {
	f, err := s.in(nd, 1)
	if err != nil {
		return err
	}
	if len(x.Shape) != 4 || len(f.Shape) != 4 {
		return fmt.Errorf("conv: input %v and filter %v must be rank 4", x.Shape, f.Shape)
	}
	bias, act, err := s.fused(nd, 2)
	if err != nil {
		return err
	}
	p := tensor.ConvParams{StrideH: nd.stride[0], StrideW: nd.stride[1], DilH: nd.dil[0], DilW: nd.dil[1], Act: act}
	p.Pad = nd.padding(x.Shape[1], x.Shape[2], f.Shape[0], f.Shape[1])
	if nd.kind == kDepthwise {
		return tensor.DepthwiseConv2D(&s.ws, out, x, f, bias, p)
	}
	if !nd.residual {
		return tensor.Conv2D(&s.ws, out, x, f, bias, p)
	}
	if p.Residual, err = s.in(nd, len(nd.in)-1); err != nil {
		return err
	}
	err = tensor.Conv2D(&s.ws, out, x, f, bias, p)
	if !errors.Is(err, tensor.ErrResidual) {
		return err
	}
	// The shortcut broadcasts into the output rather than matching it:
	// add it unfused (one that would enlarge the output cannot be added
	// in place and is refused).
	res := p.Residual
	p.Residual, p.Act = nil, tensor.Activation{}
	if err := tensor.Conv2D(&s.ws, out, x, f, bias, p); err != nil {
		return err
	}
	if len(res.Data) > len(out.Data) {
		return fmt.Errorf("residual %v is larger than the convolution output %v", res.Shape, out.Shape)
	}
	if err := tensor.Binary(out, out, res, tensor.OpAdd); err != nil {
		return err
	}
	return tensor.Apply(out, out, act)
}

func (nd *node) padding(h, w, kh, kw int) tensor.Padding {
	switch nd.pad {
	case "SAME":
		return tensor.SamePadding(h, w, kh, kw, nd.stride[0], nd.stride[1], nd.dil[0], nd.dil[1])
	case "EXPLICIT":
		return nd.expl
	}
	return tensor.Padding{}
}

func (s *Session) pool(nd *node, out, x *tensor.Tensor) error {
	if len(x.Shape) != 4 {
		return fmt.Errorf("pool: input %v must be rank 4", x.Shape)
	}
	p := tensor.PoolParams{KH: nd.ksize[0], KW: nd.ksize[1], StrideH: nd.stride[0], StrideW: nd.stride[1]}
	p.Pad = nd.padding(x.Shape[1], x.Shape[2], p.KH, p.KW)
	if nd.kind == kAvgPool {
		return tensor.AvgPool(out, x, p)
	}
	return tensor.MaxPool(out, x, p)
}

func (s *Session) padOp(nd *node, out, x *tensor.Tensor) error {
	flat := s.ints(nd, 1)
	if len(flat) != 2*len(x.Shape) || len(x.Shape) > len(padBuf{}) {
		return fmt.Errorf("pad: paddings %v for shape %v", flat, x.Shape)
	}
	var pb padBuf
	pads := pb[:len(x.Shape)]
	for i := range pads {
		pads[i] = [2]int{flat[2*i], flat[2*i+1]}
	}
	var value float32
	if len(nd.in) > 2 {
		c, err := s.in(nd, 2)
		if err != nil {
			return err
		}
		if len(c.Data) != 1 {
			return fmt.Errorf("pad: constant value has %d elements", len(c.Data))
		}
		value = c.Data[0]
	}
	return tensor.Pad(out, x, pads, value)
}

type padBuf [8][2]int

// reshape makes out a view of x with a new shape; one -1 is inferred.
func reshape(out, x *tensor.Tensor, shape []int) error {
	known, infer := 1, -1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			return fmt.Errorf("reshape: bad shape %v", shape)
		default:
			known *= d
		}
	}
	out.Shape = append(out.Shape[:0], shape...)
	if infer >= 0 {
		if known == 0 || len(x.Data)%known != 0 {
			return fmt.Errorf("reshape: cannot infer %v from %d values", shape, len(x.Data))
		}
		out.Shape[infer] = len(x.Data) / known
	} else if known != len(x.Data) {
		return fmt.Errorf("reshape: shape %v does not hold %d values", shape, len(x.Data))
	}
	out.Data = x.Data
	return nil
}
