package tensor

import "fmt"

// Pad writes x surrounded by constant value into dst; pads[i] is the
// (before, after) count for axis i.
func Pad(dst, x *Tensor, pads [][2]int, value float32) error {
	r := len(x.Shape)
	if len(pads) != r || r == 0 || r > maxRank {
		return fmt.Errorf("pad: %d pad pairs for shape %v", len(pads), x.Shape)
	}
	var out [maxRank]int
	for i, d := range x.Shape {
		if pads[i][0] < 0 || pads[i][1] < 0 {
			return fmt.Errorf("pad: negative padding %v", pads[i])
		}
		out[i] = d + pads[i][0] + pads[i][1]
	}
	if err := checkSize(out[:r]...); err != nil {
		return fmt.Errorf("pad: %w", err)
	}
	dst.Resize(out[:r]...)
	for i := range dst.Data {
		dst.Data[i] = value
	}
	last := x.Shape[r-1]
	if last == 0 || len(x.Data) == 0 {
		return nil
	}
	var idx [maxRank]int
	for off := 0; off < len(x.Data); off += last {
		d := 0
		for i := range r - 1 {
			d = d*out[i] + idx[i] + pads[i][0]
		}
		d = d*out[r-1] + pads[r-1][0]
		copy(dst.Data[d:d+last], x.Data[off:off+last])
		for i := r - 2; i >= 0; i-- {
			idx[i]++
			if idx[i] < x.Shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return nil
}

// Mean averages x over the given axes (negative counts from the end).
func Mean(dst, x *Tensor, axes []int, keepDims bool) error {
	r := len(x.Shape)
	if r > maxRank {
		return fmt.Errorf("mean: rank above %d", maxRank)
	}
	var reduce [maxRank]bool
	for _, a := range axes {
		if a < 0 {
			a += r
		}
		if a < 0 || a >= r {
			return fmt.Errorf("mean: axis out of range for shape %v", x.Shape)
		}
		reduce[a] = true
	}
	var out, ostride [maxRank]int
	shape := make([]int, 0, maxRank)
	for i, d := range x.Shape {
		if reduce[i] {
			out[i] = 1
			if keepDims {
				shape = append(shape, 1)
			}
			continue
		}
		out[i] = d
		shape = append(shape, d)
	}
	s := 1
	for i := r - 1; i >= 0; i-- {
		if !reduce[i] {
			ostride[i] = s
		}
		s *= out[i]
	}
	dst.Resize(shape...)
	clear(dst.Data)
	if len(x.Data) == 0 {
		return nil
	}
	var idx [maxRank]int
	o := 0
	for _, v := range x.Data {
		dst.Data[o] += v
		for i := r - 1; i >= 0; i-- {
			idx[i]++
			o += ostride[i]
			if idx[i] < x.Shape[i] {
				break
			}
			o -= ostride[i] * idx[i]
			idx[i] = 0
		}
	}
	inv := float32(len(dst.Data)) / float32(len(x.Data))
	for i := range dst.Data {
		dst.Data[i] *= inv
	}
	return nil
}

// Concat joins tensors along axis; all other dimensions must agree.
func Concat(dst *Tensor, xs []*Tensor, axis int) error {
	if len(xs) == 0 {
		return fmt.Errorf("concat: no inputs")
	}
	r := len(xs[0].Shape)
	if axis < 0 {
		axis += r
	}
	if axis < 0 || axis >= r || r > maxRank {
		return fmt.Errorf("concat: axis %d out of range for rank %d", axis, r)
	}
	var out [maxRank]int
	copy(out[:], xs[0].Shape)
	out[axis] = 0
	for _, x := range xs {
		if len(x.Shape) != r {
			return fmt.Errorf("concat: ranks differ: %v vs %v", xs[0].Shape, x.Shape)
		}
		for i, d := range x.Shape {
			if i != axis && d != xs[0].Shape[i] {
				return fmt.Errorf("concat: shapes differ off axis %d: %v vs %v", axis, xs[0].Shape, x.Shape)
			}
		}
		out[axis] += x.Shape[axis]
	}
	outer := Size(xs[0].Shape[:axis])
	inner := Size(xs[0].Shape[axis+1:])
	for _, x := range xs {
		if x == dst {
			return fmt.Errorf("concat: destination is also an input")
		}
	}
	if err := checkSize(out[:r]...); err != nil {
		return fmt.Errorf("concat: %w", err)
	}
	dst.Resize(out[:r]...)
	row := out[axis] * inner
	off := 0
	for _, x := range xs {
		seg := x.Shape[axis] * inner
		for o := range outer {
			copy(dst.Data[o*row+off:o*row+off+seg], x.Data[o*seg:(o+1)*seg])
		}
		off += seg
	}
	return nil
}
