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

// applyRows applies bias then the activation to rows of length channels.
// Bias and the two activations the mobile nets use everywhere (Relu,
// per-channel Prelu) run in one pass; the rest take a second.
func (a Activation) applyRows(data, bias []float32, channels int) {
	switch {
	case a.Kind == ActRelu:
		for off := 0; off < len(data); off += channels {
			row := data[off : off+channels]
			if bias == nil {
				for j, v := range row {
					row[j] = max(v, 0)
				}
				continue
			}
			b := bias[:len(row)]
			for j, v := range row {
				row[j] = max(v+b[j], 0)
			}
		}
		return
	case a.Kind == ActPrelu && len(a.Alpha) == channels:
		for off := 0; off < len(data); off += channels {
			row := data[off : off+channels]
			al := a.Alpha[:len(row)]
			if bias != nil {
				b := bias[:len(row)]
				for j := range row {
					row[j] += b[j]
				}
			}
			for j, v := range row {
				if v < 0 {
					row[j] = v * al[j]
				}
			}
		}
		return
	}
	if bias != nil {
		for off := 0; off < len(data); off += channels {
			row := data[off : off+channels]
			b := bias[:len(row)]
			for j := range row {
				row[j] += b[j]
			}
		}
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
	act.applyRows(dst.Data, nil, c)
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
