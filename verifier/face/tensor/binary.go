package tensor

import "fmt"

// BinOp is an element-wise binary operation.
type BinOp int

// The element-wise operations the models use.
const (
	OpAdd BinOp = iota
	OpSub
	OpMul
	OpDiv
	OpMin
	OpMax
)

func (op BinOp) String() string {
	return [...]string{"add", "sub", "mul", "div", "min", "max"}[op]
}

// maxRank bounds broadcasting so index arithmetic lives in fixed arrays.
const maxRank = 8

// Binary writes op(x, y) into dst with NumPy broadcasting. dst may be x
// when x already has the output shape; it must not be y unless y does.
func Binary(dst, x, y *Tensor, op BinOp) error {
	if len(x.Shape) > maxRank || len(y.Shape) > maxRank {
		return fmt.Errorf("%v: rank above %d", op, maxRank)
	}
	r := max(len(x.Shape), len(y.Shape))
	var out, xs, ys [maxRank]int
	for i := range r {
		a, b := dimFromRight(x.Shape, r-1-i), dimFromRight(y.Shape, r-1-i)
		switch {
		case a == b, b == 1:
			out[i] = a
		case a == 1:
			out[i] = b
		default:
			return fmt.Errorf("%v: shapes %v and %v do not broadcast", op, x.Shape, y.Shape)
		}
	}
	if err := checkSize(out[:r]...); err != nil {
		return fmt.Errorf("%v: %w", op, err)
	}
	if !sameShape(dst.Shape, out[:r]) {
		dst.Resize(out[:r]...)
	}
	switch {
	case len(x.Data) == len(dst.Data) && len(y.Data) == len(dst.Data):
		apply(op, dst.Data, x.Data, y.Data)
		return nil
	case len(x.Data) == len(dst.Data) && len(y.Data) > 0 && isRow(y.Shape, out[:r]):
		// y varies only along the trailing axes: repeat it row by row.
		for off := 0; off < len(dst.Data); off += len(y.Data) {
			apply(op, dst.Data[off:off+len(y.Data)], x.Data[off:off+len(y.Data)], y.Data)
		}
		return nil
	}
	// General case: strides with 0 on broadcast axes, odometer over out.
	sx, sy := 1, 1
	for i := r - 1; i >= 0; i-- {
		if dimFromRight(x.Shape, r-1-i) != 1 {
			xs[i] = sx
		}
		sx *= dimFromRight(x.Shape, r-1-i)
		if dimFromRight(y.Shape, r-1-i) != 1 {
			ys[i] = sy
		}
		sy *= dimFromRight(y.Shape, r-1-i)
	}
	var idx [maxRank]int
	xo, yo := 0, 0
	for o := range dst.Data {
		dst.Data[o] = scalar(op, x.Data[xo], y.Data[yo])
		for i := r - 1; i >= 0; i-- {
			idx[i]++
			xo += xs[i]
			yo += ys[i]
			if idx[i] < out[i] {
				break
			}
			xo -= xs[i] * idx[i]
			yo -= ys[i] * idx[i]
			idx[i] = 0
		}
	}
	return nil
}

func dimFromRight(shape []int, i int) int {
	if i >= len(shape) {
		return 1
	}
	return shape[len(shape)-1-i]
}

func sameShape(a, b []int) bool {
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

// isRow reports whether y, right-aligned against out, equals out's trailing
// axes exactly after dropping leading 1s (so it tiles contiguously).
func isRow(y, out []int) bool {
	lead := 0
	for lead < len(y) && y[lead] == 1 {
		lead++
	}
	tail := y[lead:]
	return sameShape(tail, out[len(out)-len(tail):])
}

func apply(op BinOp, dst, x, y []float32) {
	x, y = x[:len(dst)], y[:len(dst)]
	switch op {
	case OpAdd:
		for i := range dst {
			dst[i] = x[i] + y[i]
		}
	case OpMul:
		for i := range dst {
			dst[i] = x[i] * y[i]
		}
	default:
		for i := range dst {
			dst[i] = scalar(op, x[i], y[i])
		}
	}
}

func scalar(op BinOp, a, b float32) float32 {
	switch op {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	case OpMul:
		return a * b
	case OpDiv:
		return a / b
	case OpMin:
		return min(a, b)
	default:
		return max(a, b)
	}
}
