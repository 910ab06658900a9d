package tensor

import (
	"fmt"
	"math"
)

// ActKind names an activation fused into a convolution or matmul, as
// TensorFlow's fused ops do.
type ActKind int

// Fused activations. Prelu takes per-channel Alpha; LeakyRelu a scalar Leak.
const (
	ActNone ActKind = iota
	ActRelu
	ActRelu6
	ActPrelu
	ActLeakyRelu
	ActSigmoid
	ActElu
)

// Activation is a fused activation with its parameters.
type Activation struct {
	Kind  ActKind
	Alpha []float32 // Prelu: one per output channel (or one for all)
	Leak  float32   // LeakyRelu slope
}

// Check validates the activation against the channel count.
func (a Activation) Check(channels int) error {
	if a.Kind == ActPrelu && len(a.Alpha) != channels && len(a.Alpha) != 1 {
		return fmt.Errorf("prelu: %d alphas for %d channels", len(a.Alpha), channels)
	}
	return nil
}

// applyRows adds bias (per channel) and res (element-wise, a residual
// branch), either may be nil, then applies the activation, to rows of
// length channels. The two activations the mobile nets use everywhere
// (Relu, per-channel Prelu) run in the same pass, branch-free (a
// sign-dependent branch mispredicts on about half the values); the rest
// take a second.
func (a Activation) applyRows(data, bias, res []float32, channels int) {
	if haveFMA && channels%8 == 0 && channels > 0 && len(data) > 0 {
		// The same in AVX2, eight channels at a time (identical results:
		// one of max(v, 0) and min(v, 0) is zero, so the fused
		// multiply-add rounds like the product alone).
		mode := -1
		switch {
		case a.Kind == ActNone:
			mode = 0
		case a.Kind == ActRelu:
			mode = 1
		case a.Kind == ActPrelu && len(a.Alpha) == channels:
			mode = 2
		}
		if mode >= 0 {
			if mode > 0 || bias != nil || res != nil {
				epiFMA(&data[0], first(bias), first(res), first(a.Alpha), len(data)/channels, channels, mode)
			}
			return
		}
	}
	switch {
	case a.Kind == ActRelu:
		for off := 0; off < len(data); off += channels {
			row := data[off : off+channels]
			addRow(row, bias, res, off)
			for j, v := range row {
				row[j] = max(v, 0)
			}
		}
		return
	case a.Kind == ActPrelu && len(a.Alpha) == channels:
		for off := 0; off < len(data); off += channels {
			row := data[off : off+channels]
			addRow(row, bias, res, off)
			al := a.Alpha[:len(row)]
			for j, v := range row {
				row[j] = max(v, 0) + min(v, 0)*al[j]
			}
		}
		return
	}
	for off := 0; off < len(data); off += channels {
		addRow(data[off:off+channels], bias, res, off)
	}
	switch a.Kind {
	case ActRelu6:
		for i, v := range data {
			data[i] = min(max(v, 0), 6)
		}
	case ActPrelu: // one alpha for all channels
		for i, v := range data {
			if v < 0 {
				data[i] = v * a.Alpha[0]
			}
		}
	case ActLeakyRelu:
		for i, v := range data {
			if v < 0 {
				data[i] = v * a.Leak
			}
		}
	case ActSigmoid:
		for i, v := range data {
			data[i] = sigmoid(v)
		}
	case ActElu:
		for i, v := range data {
			if v < 0 {
				data[i] = float32(math.Expm1(float64(v)))
			}
		}
	}
}

// first is &s[0], or nil for an empty slice.
func first(s []float32) *float32 {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

// addRow adds bias and res[off:] (each optional) to row.
func addRow(row, bias, res []float32, off int) {
	if bias != nil {
		b := bias[:len(row)]
		for j := range row {
			row[j] += b[j]
		}
	}
	if res != nil {
		r := res[off : off+len(row)]
		for j := range row {
			row[j] += r[j]
		}
	}
}

func sigmoid(v float32) float32 { return float32(1 / (1 + math.Exp(-float64(v)))) }

// Apply writes act(x) into dst, with Prelu alphas indexed by the last axis.
func Apply(dst, x *Tensor, act Activation) error {
	c := 1
	if len(x.Shape) > 0 {
		c = x.Shape[len(x.Shape)-1]
	}
	if err := act.Check(c); err != nil {
		return fmt.Errorf("activation: %w", err)
	}
	if dst != x {
		dst.Resize(x.Shape...)
		if act.Kind == ActRelu {
			// Copy and rectify in one pass.
			out := dst.Data[:len(x.Data)]
			for i, v := range x.Data {
				out[i] = max(v, 0)
			}
			return nil
		}
		copy(dst.Data, x.Data)
	}
	act.applyRows(dst.Data, nil, nil, c)
	return nil
}

// Softmax over the last axis, computed stably (max subtracted).
func Softmax(dst, x *Tensor) {
	if dst != x {
		dst.CopyFrom(x)
	}
	c := 1
	if len(x.Shape) > 0 {
		c = x.Shape[len(x.Shape)-1]
	}
	if c == 0 {
		return
	}
	for off := 0; off < len(dst.Data); off += c {
		row := dst.Data[off : off+c]
		m := row[0]
		for _, v := range row {
			m = max(m, v)
		}
		var sum float64
		for j, v := range row {
			e := math.Exp(float64(v - m))
			row[j] = float32(e)
			sum += e
		}
		for j := range row {
			row[j] = float32(float64(row[j]) / sum)
		}
	}
}
