// Package tfjs loads TensorFlow.js models: weight manifests (shared by graph
// models and face-api's layer models) and graph models (model.json with
// modelTopology), and runs graph models on the tensor package.
package tfjs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path"
)

// ErrFormat marks model files that do not follow the TF.js format.
var ErrFormat = errors.New("tfjs: bad model format")

// maxElements bounds one weight (256 Mi values): a hostile manifest must not
// make us allocate without limit.
const maxElements = 1 << 28

// WeightGroup is one entry of a weightsManifest: shards read back to back,
// holding the listed weights in order.
type WeightGroup struct {
	Paths   []string     `json:"paths"`
	Weights []WeightSpec `json:"weights"`
}

// WeightSpec describes one stored weight.
type WeightSpec struct {
	Name         string        `json:"name"`
	Shape        []int         `json:"shape"`
	DType        string        `json:"dtype"`
	Quantization *Quantization `json:"quantization"`
}

// Quantization: uint8/uint16 store q with value = q·Scale + Min; float16
// stores IEEE half floats.
type Quantization struct {
	DType string  `json:"dtype"`
	Scale float64 `json:"scale"`
	Min   float64 `json:"min"`
}

// Weight is a decoded weight: Float for float32 weights, Int for int32.
type Weight struct {
	Shape []int
	Float []float32
	Int   []int32
}

// ReadFunc returns a file's bytes by slash-separated name.
type ReadFunc func(name string) ([]byte, error)

// LoadWeights decodes every weight of the manifest; shard paths are
// relative to dir.
func LoadWeights(read ReadFunc, dir string, groups []WeightGroup) (map[string]Weight, error) {
	out := map[string]Weight{}
	for gi, g := range groups {
		var buf []byte
		for _, p := range g.Paths {
			b, err := read(path.Join(dir, p))
			if err != nil {
				return nil, fmt.Errorf("load weights: %w", err)
			}
			buf = append(buf, b...)
		}
		for _, spec := range g.Weights {
			w, n, err := decodeWeight(spec, buf)
			if err != nil {
				return nil, fmt.Errorf("load weights: group %d: %w", gi, err)
			}
			out[spec.Name] = w
			buf = buf[n:]
		}
	}
	return out, nil
}

func decodeWeight(spec WeightSpec, buf []byte) (Weight, int, error) {
	count := 1
	for _, d := range spec.Shape {
		if d < 0 || (d > 0 && count > maxElements/d) {
			return Weight{}, 0, fmt.Errorf("weight %q: bad shape %v: %w", spec.Name, spec.Shape, ErrFormat)
		}
		count *= d
	}
	w := Weight{Shape: append([]int(nil), spec.Shape...)}
	size := 4
	if q := spec.Quantization; q != nil {
		switch q.DType {
		case "uint8":
			size = 1
		case "uint16", "float16":
			size = 2
		default:
			return Weight{}, 0, fmt.Errorf("weight %q: quantization %q: %w", spec.Name, q.DType, ErrFormat)
		}
	}
	n := count * size
	if n > len(buf) {
		return Weight{}, 0, fmt.Errorf("weight %q needs %d bytes, %d left in shards: %w", spec.Name, n, len(buf), ErrFormat)
	}
	raw := buf[:n]
	vals := make([]float32, count)
	switch {
	case spec.Quantization == nil && spec.DType == "float32":
		for i := range vals {
			vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case spec.Quantization == nil && spec.DType == "int32":
		w.Int = make([]int32, count)
		for i := range w.Int {
			w.Int[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		return w, n, nil
	case spec.Quantization == nil:
		return Weight{}, 0, fmt.Errorf("weight %q: dtype %q: %w", spec.Name, spec.DType, ErrFormat)
	case spec.Quantization.DType == "float16":
		for i := range vals {
			vals[i] = halfToFloat(binary.LittleEndian.Uint16(raw[2*i:]))
		}
	default:
		q := spec.Quantization
		for i := range vals {
			v := uint32(raw[i])
			if size == 2 {
				v = uint32(binary.LittleEndian.Uint16(raw[2*i:]))
			}
			vals[i] = float32(float64(v)*q.Scale + q.Min)
		}
	}
	if spec.DType == "int32" {
		// Quantized integer weights dequantize then round, as TF.js does.
		w.Int = make([]int32, count)
		for i, v := range vals {
			w.Int[i] = int32(math.Round(float64(v)))
		}
		return w, n, nil
	}
	if spec.DType != "float32" {
		return Weight{}, 0, fmt.Errorf("weight %q: dtype %q: %w", spec.Name, spec.DType, ErrFormat)
	}
	w.Float = vals
	return w, n, nil
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: value = mant·2⁻²⁴
		f := float32(mant) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
