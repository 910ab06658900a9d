package tensor

import "fmt"

// MatMul writes op(a)·op(b) + bias, then the activation, into dst for 2-D
// a and b, where op transposes when asked (TensorFlow's transpose_a/_b).
func MatMul(ws *Workspace, dst, a, b *Tensor, transA, transB bool, bias []float32, act Activation) error {
	if len(a.Shape) != 2 || len(b.Shape) != 2 {
		return fmt.Errorf("matmul: want 2-D operands, got %v and %v", a.Shape, b.Shape)
	}
	m, k := a.Shape[0], a.Shape[1]
	if transA {
		m, k = k, m
	}
	kb, n := b.Shape[0], b.Shape[1]
	if transB {
		kb, n = n, kb
	}
	if k != kb {
		return fmt.Errorf("matmul: inner dimensions differ: %v·%v (transpose %v,%v)", a.Shape, b.Shape, transA, transB)
	}
	if bias != nil && len(bias) != n && len(bias) != 1 {
		return fmt.Errorf("matmul: %d biases for %d columns", len(bias), n)
	}
	if err := act.Check(n); err != nil {
		return fmt.Errorf("matmul: %w", err)
	}
	ad, bd := a.Data, b.Data
	if transA || transB {
		buf := ws.scratch(boolInt(transA)*m*k + boolInt(transB)*k*n)
		if transA {
			ad = transpose(buf[:m*k], a.Data, k, m)
			buf = buf[m*k:]
		}
		if transB {
			bd = transpose(buf[:k*n], b.Data, n, k)
		}
	}
	if err := checkSize(m, n); err != nil {
		return fmt.Errorf("matmul: %w", err)
	}
	dst.Resize(m, n)
	parGemm(ws, m, n, k, ad, k, bd, n, nil, dst.Data, n)
	if len(bias) == 1 && n != 1 {
		for i := range dst.Data {
			dst.Data[i] += bias[0]
		}
		bias = nil
	}
	act.applyRows(dst.Data, bias, nil, n)
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// transpose writes the cols×rows transpose of the rows×cols src into dst.
func transpose(dst, src []float32, rows, cols int) []float32 {
	for i := range rows {
		for j := range cols {
			dst[j*rows+i] = src[i*cols+j]
		}
	}
	return dst
}
