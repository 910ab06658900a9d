package tfjs

import (
	"fmt"
	"math"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// The element-wise and reduction ops of embedding heads: MobileFaceNet's
// PReLU is exported as Relu(x) + α·(x − Abs(x)), and its embedding is
// L2-normalised by Square, Sum, Maximum and Rsqrt.

// unaryOp is an element-wise function of one operand.
type unaryOp int

const (
	opAbs unaryOp = iota
	opSquare
	opRsqrt
)

var unaries = map[string]unaryOp{"Abs": opAbs, "Square": opSquare, "Rsqrt": opRsqrt}

func applyUnary(out, x *tensor.Tensor, op unaryOp) {
	out.Resize(x.Shape...)
	switch op {
	case opAbs:
		for i, v := range x.Data {
			out.Data[i] = float32(math.Abs(float64(v)))
		}
	case opSquare:
		for i, v := range x.Data {
			out.Data[i] = v * v
		}
	case opRsqrt:
		for i, v := range x.Data {
			out.Data[i] = float32(1 / math.Sqrt(float64(v)))
		}
	}
}

// sum adds x over axes: the mean times the count it averaged.
func sum(out, x *tensor.Tensor, axes []int, keep bool) error {
	if err := tensor.Mean(out, x, axes, keep); err != nil {
		return fmt.Errorf("sum: %w", err)
	}
	if len(out.Data) == 0 {
		return nil
	}
	n := float32(len(x.Data) / len(out.Data))
	for i := range out.Data {
		out.Data[i] *= n
	}
	return nil
}

// squeeze makes out a view of x without the size-1 dimensions dims (all of
// them when dims is empty); a listed dimension that is not 1 is an error.
func squeeze(out, x *tensor.Tensor, dims []int) error {
	r := len(x.Shape)
	drop := make([]bool, r)
	for _, d := range dims {
		if d < 0 {
			d += r
		}
		if d < 0 || d >= r || x.Shape[d] != 1 {
			return fmt.Errorf("squeeze: dimension %d of %v is not 1", d, x.Shape)
		}
		drop[d] = true
	}
	out.Shape = out.Shape[:0]
	for i, s := range x.Shape {
		if !drop[i] && (len(dims) > 0 || s != 1) {
			out.Shape = append(out.Shape, s)
		}
	}
	out.Data = x.Data
	return nil
}
