package tfjs

// plan maps computed values to a small set of physical buffers: a buffer is
// handed to a later node once every reader of its value has run, so peak
// memory is the widest cut of the graph rather than the sum of all layers.
type plan struct {
	buffers int
	phys    []int // per value: buffer index, -1 if not computed
	alias   []int // per value: the value whose data it shares, or -1
}

func makePlan(m *Model) plan {
	n := len(m.values)
	p := plan{phys: make([]int, n), alias: make([]int, n)}
	root := make([]int, n) // value whose buffer holds the data
	for i := range n {
		p.phys[i], p.alias[i], root[i] = -1, -1, i
	}
	for _, nd := range m.nodes {
		if nd.kind == kReshape || nd.kind == kIdentity || nd.kind == kSqueeze {
			src := nd.in[0]
			p.alias[nd.out] = src
			root[nd.out] = root[src]
		}
	}
	uses := make([]int, n)
	for _, nd := range m.nodes {
		for _, in := range nd.in {
			uses[root[in]]++
		}
	}
	for _, o := range m.outputs {
		uses[root[o]]++ // outputs stay alive after the run
	}
	var free []int
	for _, nd := range m.nodes {
		if p.alias[nd.out] < 0 {
			if k := len(free); k > 0 {
				p.phys[nd.out], free = free[k-1], free[:k-1]
			} else {
				p.phys[nd.out] = p.buffers
				p.buffers++
			}
		}
		for _, in := range nd.in {
			r := root[in]
			if m.values[r].node < 0 {
				continue // constants and inputs are not ours to recycle
			}
			if uses[r]--; uses[r] == 0 {
				free = append(free, p.phys[r])
			}
		}
	}
	return p
}
