package tfjs

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// maxNodes bounds a graph so a hostile model.json cannot exhaust memory.
const maxNodes = 1 << 16

// Model is a loaded graph model, immutable and safe to share; run it
// through a Session.
type Model struct {
	values  []value // one per node output
	nodes   []node  // computed nodes in execution order
	inputs  []int   // Placeholder values, in model.json order
	inShape [][]int // each input's declared shape (-1: unknown size)
	outputs map[string]int
	names   []string // output names, sorted
	plan    plan
}

// value is a node's output: constant data, a placeholder, or computed.
type value struct {
	name  string
	konst *tensor.Tensor // float constants
	ints  []int          // integer constants (shapes, paddings, axes)
	isInt bool
	node  int // index into Model.nodes when computed, else -1
	input int // index into Model.inputs when a placeholder, else -1
}

type graphJSON struct {
	Format          string        `json:"format"`
	ModelTopology   topologyJSON  `json:"modelTopology"`
	WeightsManifest []WeightGroup `json:"weightsManifest"`
}

type topologyJSON struct {
	Node []nodeJSON `json:"node"`
}

type nodeJSON struct {
	Name  string   `json:"name"`
	Op    string   `json:"op"`
	Input []string `json:"input"`
	Attr  attrs    `json:"attr"`
}

// Load reads a graph model: name is the model.json path handed to read,
// shards are read relative to it. Its outputs are the nodes no other node
// reads, plus any named in keep (an inner layer wanted as a result, such
// as an embedding that a classifier head reads).
func Load(read ReadFunc, name string, keep ...string) (*Model, error) {
	raw, err := read(name)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	var g graphJSON
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("load model %s: %w: %v", name, ErrFormat, err)
	}
	if g.Format != "" && g.Format != "graph-model" {
		return nil, fmt.Errorf("load model %s: format %q is not a graph model: %w", name, g.Format, ErrFormat)
	}
	weights, err := LoadWeights(read, path.Dir(name), g.WeightsManifest)
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", name, err)
	}
	m, err := build(g.ModelTopology.Node, weights, keep)
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", name, err)
	}
	return m, nil
}

func build(nodes []nodeJSON, weights map[string]Weight, keep []string) (*Model, error) {
	if len(nodes) == 0 || len(nodes) > maxNodes {
		return nil, fmt.Errorf("graph has %d nodes (want 1..%d): %w", len(nodes), maxNodes, ErrFormat)
	}
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if _, dup := index[n.Name]; dup || n.Name == "" {
			return nil, fmt.Errorf("node name %q empty or repeated: %w", n.Name, ErrFormat)
		}
		index[n.Name] = i
	}
	// Resolve inputs to node indices; control inputs (^name) only order
	// execution in TensorFlow and carry no data, so they are dropped.
	deps := make([][]int, len(nodes))
	used := make([]bool, len(nodes))
	for i, n := range nodes {
		for _, in := range n.Input {
			if strings.HasPrefix(in, "^") {
				continue
			}
			name, port, _ := strings.Cut(in, ":")
			if port != "" && port != "0" {
				return nil, fmt.Errorf("node %q: input %q: only single-output ops are supported: %w", n.Name, in, ErrFormat)
			}
			j, ok := index[name]
			if !ok {
				return nil, fmt.Errorf("node %q: unknown input %q: %w", n.Name, in, ErrFormat)
			}
			deps[i] = append(deps[i], j)
			used[j] = true
		}
	}
	order, err := topoOrder(deps)
	if err != nil {
		return nil, err
	}
	m := &Model{values: make([]value, len(nodes)), outputs: map[string]int{}}
	for _, i := range order {
		n := nodes[i]
		v := value{name: n.Name, node: -1, input: -1}
		switch n.Op {
		case "Const":
			w, ok := weights[n.Name]
			if !ok {
				return nil, fmt.Errorf("const %q has no weight data: %w", n.Name, ErrFormat)
			}
			if w.Int != nil {
				v.isInt = true
				v.ints = make([]int, len(w.Int))
				for k, x := range w.Int {
					v.ints[k] = int(x)
				}
			} else {
				v.konst = &tensor.Tensor{Shape: w.Shape, Data: w.Float}
			}
		case "Placeholder":
			v.input = len(m.inputs)
			m.inputs = append(m.inputs, i)
			var shape []int
			for _, d := range n.Attr["shape"].Shape.Dim {
				shape = append(shape, int(d.Size))
			}
			m.inShape = append(m.inShape, shape)
		default:
			nd, err := newNode(n, i, deps[i], m.values)
			if err != nil {
				return nil, err
			}
			v.node = len(m.nodes)
			m.nodes = append(m.nodes, nd)
			if !used[i] || slices.Contains(keep, n.Name) {
				m.outputs[n.Name] = i
				m.names = append(m.names, n.Name)
			}
		}
		m.values[i] = v
	}
	for _, k := range keep {
		if _, ok := m.outputs[k]; !ok {
			return nil, fmt.Errorf("output %q to keep is not a computed node: %w", k, ErrFormat)
		}
	}
	if len(m.inputs) == 0 || len(m.outputs) == 0 {
		return nil, fmt.Errorf("graph has %d inputs and %d outputs: %w", len(m.inputs), len(m.outputs), ErrFormat)
	}
	slices.Sort(m.names)
	outputOf := make(map[int]bool, len(m.outputs))
	for _, v := range m.outputs {
		outputOf[v] = true
	}
	fuseResiduals(m, outputOf)
	for _, nd := range m.nodes {
		if nd.kind == kConv && m.values[nd.in[1]].konst != nil {
			tensor.PackFilter(m.values[nd.in[1]].konst) // constant weights: packed once for every run
		}
	}
	m.plan = makePlan(m)
	return m, nil
}

// topoOrder orders nodes so each comes after its inputs (Kahn's algorithm;
// iterative so deep graphs cannot overflow the stack) and rejects cycles.
func topoOrder(deps [][]int) ([]int, error) {
	pending := make([]int, len(deps))
	users := make([][]int, len(deps))
	for i, d := range deps {
		pending[i] = len(d)
		for _, j := range d {
			users[j] = append(users[j], i)
		}
	}
	var order, ready []int
	for i, p := range pending {
		if p == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		order = append(order, i)
		for _, u := range users[i] {
			if pending[u]--; pending[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	if len(order) != len(deps) {
		return nil, fmt.Errorf("graph has a cycle: %w", ErrFormat)
	}
	return order, nil
}

// Outputs lists the graph's output names (nodes no other node consumes).
func (m *Model) Outputs() []string { return slices.Clone(m.names) }

// NumInputs is the number of Placeholder inputs.
func (m *Model) NumInputs() int { return len(m.inputs) }

// InputShape is input i's shape as model.json declares it (-1 for a size
// it leaves open, nil when it declares none): what a caller must resize
// its image to.
func (m *Model) InputShape(i int) []int { return slices.Clone(m.inShape[i]) }
