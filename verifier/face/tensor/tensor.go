// Package tensor is the face engine's numeric core: dense float32 tensors in
// NHWC layout and the handful of operations the face models use. Every
// operation writes into a caller-owned destination whose buffer is reused
// across calls, so a model run allocates nothing once warmed up.
package tensor

import (
	"errors"
	"fmt"
	"slices"
)

// Tensor is a dense row-major float32 array; 4-D image tensors are NHWC.
type Tensor struct {
	Shape []int
	Data  []float32
	// packed is Data laid out for the FMA gemm kernel (PackFilter), for
	// a convolution filter that never changes.
	packed []float32
}

// New returns a zeroed tensor of the given shape.
func New(shape ...int) *Tensor {
	t := &Tensor{}
	t.Resize(shape...)
	return t
}

// FromData wraps data (not copied) with a shape; it panics on a size
// mismatch, which is a programming error.
func FromData(data []float32, shape ...int) *Tensor {
	if n := Size(shape); n != len(data) {
		panic(fmt.Sprintf("tensor: %d values for shape %v (%d)", len(data), shape, n))
	}
	return &Tensor{Shape: slices.Clone(shape), Data: data}
}

// Size is the number of elements of a shape.
func Size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// MaxElements bounds any tensor an operation creates (64 Mi values,
// 256 MB): shapes come from model files and image sizes, and a hostile or
// corrupt one must fail with an error, not exhaust memory.
const MaxElements = 1 << 26

// ErrTooLarge: an operation's result would exceed MaxElements.
var ErrTooLarge = errors.New("tensor: result too large")

// ErrResidual: a fused residual does not have the convolution output's
// shape (callers then add it separately, with broadcasting), or was given
// to an operation that cannot fuse one.
var ErrResidual = errors.New("tensor: residual cannot be fused")

// checkSize returns ErrTooLarge (wrapped with the shape) when a shape has a
// negative dimension or more than MaxElements values.
func checkSize(shape ...int) error {
	n := 1
	for _, d := range shape {
		if d < 0 || (d > 0 && n > MaxElements/d) {
			// A copy, so the variadic slice does not escape: the check
			// must not allocate on the success path.
			return fmt.Errorf("shape %v: %w", append([]int(nil), shape...), ErrTooLarge)
		}
		n *= d
	}
	return nil
}

// Len is the number of elements.
func (t *Tensor) Len() int { return len(t.Data) }

// Resize sets the shape, reusing the buffer when it is large enough. The
// contents are unspecified afterwards; operations overwrite all of them.
func (t *Tensor) Resize(shape ...int) {
	t.packed = nil
	t.Shape = append(t.Shape[:0], shape...)
	n := Size(shape)
	if cap(t.Data) < n {
		t.Data = make([]float32, n)
	}
	t.Data = t.Data[:n]
}

// Dims4 returns the NHWC dimensions of a rank-4 tensor.
func (t *Tensor) Dims4() (n, h, w, c int, err error) {
	if len(t.Shape) != 4 {
		return 0, 0, 0, 0, fmt.Errorf("want rank 4 (NHWC), got shape %v", t.Shape)
	}
	return t.Shape[0], t.Shape[1], t.Shape[2], t.Shape[3], nil
}

// CopyFrom makes t a copy of src.
func (t *Tensor) CopyFrom(src *Tensor) {
	t.Resize(src.Shape...)
	copy(t.Data, src.Data)
}
