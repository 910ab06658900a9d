// Package facerec computes 128-D face descriptors with face-api's
// FaceRecognitionNet (dlib's ResNet-29 face recogniser, 99.38% on LFW),
// loaded from face-api's uint8-quantized weights. The architecture follows
// face-api's published model definition; the code is ours.
package facerec

import (
	"encoding/json"
	"fmt"
	"path"

	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// ManifestFile is the weights manifest within the models directory.
const ManifestFile = "face-api/face_recognition_model-weights_manifest.json"

const (
	// InputSize is the side of the square the face crop is resized to.
	InputSize = 150
	// Dim is the descriptor length.
	Dim = 128
)

// Align cuts the descriptor crops as the recognition net's training crops
// were: among widths 2.0–3.5 eye distances and eye heights 0.28–0.43 tried
// on the 40 labeled faces, this gave the widest gap between the farthest
// same-person and the closest different-person pair, and crops close to
// face-api's own (mean descriptor distance 0.21).
var Align = Geometry{Width: 2.9, EyeY: 0.28}

// meanRGB is subtracted from pixels before dividing by 255 (the network's
// training normalisation).
var meanRGB = [3]float32{122.782, 117.001, 104.298}

// convLayer is a convolution followed by a per-channel scale layer; the
// scale is folded into the filter and bias at load time, which is exact in
// real arithmetic and saves a pass over every activation.
type convLayer struct {
	filter *tensor.Tensor
	bias   []float32
}

type residualLayer struct {
	conv1, conv2 convLayer
	down         bool
}

// Net is the loaded network, immutable and shareable.
type Net struct {
	stem   convLayer
	blocks []residualLayer
	fc     *tensor.Tensor // [256, 128]
}

// blocks names the residual stages in order; "_down" stages halve the
// resolution and double the channels.
var blockNames = []string{
	"conv32_1", "conv32_2", "conv32_3",
	"conv64_down", "conv64_1", "conv64_2", "conv64_3",
	"conv128_down", "conv128_1", "conv128_2",
	"conv256_down", "conv256_1", "conv256_2", "conv256_down_out",
}

// Load reads the manifest and its shard through read.
func Load(read tfjs.ReadFunc) (*Net, error) {
	raw, err := read(ManifestFile)
	if err != nil {
		return nil, fmt.Errorf("load face recognition net: %w", err)
	}
	var groups []tfjs.WeightGroup
	if err := json.Unmarshal(raw, &groups); err != nil {
		return nil, fmt.Errorf("load face recognition net: manifest: %w", err)
	}
	w, err := tfjs.LoadWeights(read, path.Dir(ManifestFile), groups)
	if err != nil {
		return nil, fmt.Errorf("load face recognition net: %w", err)
	}
	n := &Net{}
	if n.stem, err = conv(w, "conv32_down", 3); err != nil {
		return nil, err
	}
	for _, name := range blockNames {
		var r residualLayer
		r.down = len(name) > 5 && name[len(name)-5:] == "_down" || name == "conv256_down_out"
		if r.conv1, err = conv(w, name+"/conv1", 0); err != nil {
			return nil, err
		}
		if r.conv2, err = conv(w, name+"/conv2", r.conv1.filter.Shape[3]); err != nil {
			return nil, err
		}
		n.blocks = append(n.blocks, r)
	}
	fc, ok := w["fc"]
	if !ok || len(fc.Shape) != 2 || fc.Shape[1] != Dim || fc.Float == nil {
		return nil, fmt.Errorf("load face recognition net: fc weight missing or not [*, %d]", Dim)
	}
	n.fc = tensor.FromData(fc.Float, fc.Shape...)
	return n, nil
}

// conv reads prefix/conv/{filters,bias} and prefix/scale/{weights,biases}
// and folds the scale in. cin > 0 checks the filter's input channels.
func conv(w map[string]tfjs.Weight, prefix string, cin int) (convLayer, error) {
	get := func(name string, rank int) (tfjs.Weight, error) {
		v, ok := w[prefix+"/"+name]
		if !ok || len(v.Shape) != rank || v.Float == nil {
			return v, fmt.Errorf("load face recognition net: weight %s/%s missing or not rank %d", prefix, name, rank)
		}
		return v, nil
	}
	f, err := get("conv/filters", 4)
	if err != nil {
		return convLayer{}, err
	}
	cout := f.Shape[3]
	if cin > 0 && f.Shape[2] != cin {
		return convLayer{}, fmt.Errorf("load face recognition net: %s has %d input channels, want %d", prefix, f.Shape[2], cin)
	}
	var vec [3]tfjs.Weight
	for i, name := range []string{"conv/bias", "scale/weights", "scale/biases"} {
		if vec[i], err = get(name, 1); err != nil {
			return convLayer{}, err
		}
		if len(vec[i].Float) != cout {
			return convLayer{}, fmt.Errorf("load face recognition net: %s/%s has %d values for %d channels", prefix, name, len(vec[i].Float), cout)
		}
	}
	bias, scale, shift := vec[0].Float, vec[1].Float, vec[2].Float
	filter := make([]float32, len(f.Float))
	for i, v := range f.Float {
		filter[i] = v * scale[i%cout]
	}
	folded := make([]float32, cout)
	for c := range cout {
		folded[c] = bias[c]*scale[c] + shift[c]
	}
	l := convLayer{filter: tensor.FromData(filter, f.Shape...), bias: folded}
	tensor.PackFilter(l.filter)
	return l, nil
}
