package tensor

// packB lays b (k×n, leading dimension ldb) out as 16-column panels, each
// k×16 and zero-padded at the right edge, the order kern4x16 reads it in.
func packB(dst []float32, b []float32, ldb, k, n int) []float32 {
	panels := (n + 15) / 16
	need := panels * k * 16
	if cap(dst) < need {
		dst = make([]float32, need)
	}
	dst = dst[:need]
	for pj := range panels {
		j0 := pj * 16
		w := min(16, n-j0)
		panel := dst[pj*k*16 : (pj+1)*k*16]
		for p := range k {
			row := panel[p*16 : p*16+16]
			copy(row, b[p*ldb+j0:p*ldb+j0+w])
			clear(row[w:])
		}
	}
	return dst
}

// PackFilter lays a convolution filter ([kh, kw, in, out]) out for the
// FMA kernel once, so every convolution with it skips packing (it was a
// sixth of a face analysis). Call it at load time on weights that never
// change afterwards; Resize drops the packing. Without AVX2/FMA it does
// nothing.
func PackFilter(f *Tensor) {
	if !haveFMA || len(f.Shape) != 4 || len(f.Data) != Size(f.Shape) {
		return
	}
	k, n := f.Shape[0]*f.Shape[1]*f.Shape[2], f.Shape[3]
	f.packed = packB(nil, f.Data, n, k, n)
}

// gemmPacked computes c = a·b from b packed by packB, with the 4×16
// AVX2/FMA kernel; rows of a are read in place. Partial tiles (the last
// rows, the last columns) go through a zero-padded copy and a 4×16 tile
// in buf, which belongs to the calling goroutine.
func gemmPacked(buf *fmaBuf, m, n, k int, a []float32, lda int, packed []float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	panels := (n + 15) / 16
	for i0 := 0; i0 < m; i0 += 4 {
		rows := min(4, m-i0)
		aRows, ldA := a[i0*lda:], lda
		if rows < 4 {
			if cap(buf.edge) < 4*k {
				buf.edge = make([]float32, 4*k)
			}
			edge := buf.edge[:4*k]
			clear(edge)
			for r := range rows {
				copy(edge[r*k:(r+1)*k], a[(i0+r)*lda:(i0+r)*lda+k])
			}
			aRows, ldA = edge, k
		}
		for pj := range panels {
			j0 := pj * 16
			w := min(16, n-j0)
			panel := packed[pj*k*16:]
			if rows == 4 && w == 16 {
				kern4x16(k, &aRows[0], ldA, &panel[0], &c[i0*ldc+j0], ldc)
				continue
			}
			kern4x16(k, &aRows[0], ldA, &panel[0], &buf.tile[0], 16)
			for r := range rows {
				copy(c[(i0+r)*ldc+j0:(i0+r)*ldc+j0+w], buf.tile[r*16:r*16+w])
			}
		}
	}
}

// gemmFMA packs b and multiplies: the self-contained form of gemmPacked
// (parGemm packs once per call and shares the panels between cores).
func gemmFMA(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	var buf fmaBuf
	buf.packed = packB(nil, b, ldb, k, n)
	gemmPacked(&buf, m, n, k, a, lda, buf.packed, c, ldc)
}

// fmaBuf is one goroutine's scratch for the FMA path: packed panels of b,
// the last partial rows of a, and a partial output tile.
type fmaBuf struct {
	packed, edge []float32
	tile         [64]float32
}
