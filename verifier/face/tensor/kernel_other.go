//go:build !amd64

package tensor

const haveFMA = false

func kern4x16(k int, a *float32, lda int, b *float32, c *float32, ldc int) {
	panic("tensor: kern4x16 needs amd64")
}

func maddFMA(o, a, b *float32, n int) {
	panic("tensor: maddFMA needs amd64")
}

func epiFMA(o, bias, res, alpha *float32, rows, c, mode int) {
	panic("tensor: epiFMA needs amd64")
}

func dwRowFMA(o, in, f *float32, n, c, step int) {
	panic("tensor: dwRowFMA needs amd64")
}

func maxFMA(o, a *float32, n int) {
	panic("tensor: maxFMA needs amd64")
}
