#include "textflag.h"

// func kern4x16(k int, a *float32, lda int, b *float32, c *float32, ldc int)
//
// c[r][0:16] = Σp a[r·lda + p] · b[p·16 : p·16+16] for rows r = 0..3:
// eight YMM accumulators (4 rows × 16 columns) stay in registers across
// the whole k loop; each step loads one packed 16-wide row of b and
// broadcasts one value of each row of a. Requires AVX2 and FMA.
TEXT ·kern4x16(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), R10
	MOVQ lda+16(FP), R8
	SHLQ $2, R8
	MOVQ b+24(FP), DI
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R9
	SHLQ $2, R9
	LEAQ (R10)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JE   store

loop:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (R10), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS (R11), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (R12), Y12
	VFMADD231PS  Y8, Y12, Y4
	VFMADD231PS  Y9, Y12, Y5
	VBROADCASTSS (R13), Y13
	VFMADD231PS  Y8, Y13, Y6
	VFMADD231PS  Y9, Y13, Y7
	ADDQ $64, DI
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $4, R12
	ADDQ $4, R13
	DECQ CX
	JNE  loop

store:
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y2, (DX)
	VMOVUPS Y3, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y4, (DX)
	VMOVUPS Y5, 32(DX)
	ADDQ    R9, DX
	VMOVUPS Y6, (DX)
	VMOVUPS Y7, 32(DX)
	VZEROUPPER
	RET

// func maddFMA(o, a, b *float32, n int)
//
// o[i] += a[i]·b[i] for i < n rounded down to a multiple of 8 (the caller
// finishes the tail), eight lanes at a time. Requires AVX2 and FMA.
TEXT ·maddFMA(SB), NOSPLIT, $0-32
	MOVQ o+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JEQ  mdone

mloop:
	VMOVUPS     (DI), Y0
	VMOVUPS     (SI), Y1
	VFMADD231PS (DX), Y1, Y0
	VMOVUPS     Y0, (DI)
	ADDQ        $32, DI
	ADDQ        $32, SI
	ADDQ        $32, DX
	DECQ        CX
	JNE         mloop

mdone:
	VZEROUPPER
	RET

// func epiFMA(o, bias, res, alpha *float32, rows, c, mode int)
// For each of rows rows of c floats (c a multiple of 8) at o: add bias
// (per channel, skipped when nil) and res (element-wise, continuing
// across rows, skipped when nil), then mode 0: nothing, 1: Relu
// (max(v, 0)), 2: Prelu (max(v, 0) + min(v, 0)·alpha per channel).
TEXT ·epiFMA(SB), NOSPLIT, $0-56
	MOVQ   o+0(FP), DI
	MOVQ   bias+8(FP), R8
	MOVQ   res+16(FP), SI
	MOVQ   alpha+24(FP), R9
	MOVQ   rows+32(FP), R10
	MOVQ   c+40(FP), R11
	MOVQ   mode+48(FP), R12
	VXORPS Y7, Y7, Y7

erow:
	TESTQ R10, R10
	JEQ   edone
	XORQ  BX, BX
	MOVQ  R11, CX
	SHRQ  $3, CX
	JEQ   enext

ecol:
	VMOVUPS (DI)(BX*1), Y0
	TESTQ   R8, R8
	JEQ     enobias
	VADDPS  (R8)(BX*1), Y0, Y0

enobias:
	TESTQ  SI, SI
	JEQ    enores
	VADDPS (SI), Y0, Y0
	ADDQ   $32, SI

enores:
	CMPQ R12, $1
	JLT  estore
	JEQ  erelu
	VMAXPS      Y7, Y0, Y1
	VMINPS      Y7, Y0, Y2
	VFMADD231PS (R9)(BX*1), Y2, Y1
	VMOVUPS     Y1, Y0
	JMP         estore

erelu:
	VMAXPS Y7, Y0, Y0

estore:
	VMOVUPS Y0, (DI)(BX*1)
	ADDQ    $32, BX
	DECQ    CX
	JNE     ecol

enext:
	LEAQ (DI)(R11*4), DI
	DECQ R10
	JMP  erow

edone:
	VZEROUPPER
	RET

// func dwRowFMA(o, in, f *float32, n, c, step int)
// One depthwise tap over n output pixels of c channels (c a multiple of
// 8): o[i·c + j] += in[i·step + j] · f[j].
TEXT ·dwRowFMA(SB), NOSPLIT, $0-48
	MOVQ  o+0(FP), DI
	MOVQ  in+8(FP), SI
	MOVQ  f+16(FP), DX
	MOVQ  n+24(FP), R8
	MOVQ  c+32(FP), R9
	MOVQ  step+40(FP), R10
	SHLQ  $2, R10
	MOVQ  R9, R11
	SHLQ  $2, R11
	SHRQ  $3, R9
	TESTQ R8, R8
	JEQ   ddone
	TESTQ R9, R9
	JEQ   ddone

dpix:
	XORQ BX, BX
	MOVQ R9, CX

dblk:
	VMOVUPS     (DI)(BX*1), Y0
	VMOVUPS     (SI)(BX*1), Y1
	VFMADD231PS (DX)(BX*1), Y1, Y0
	VMOVUPS     Y0, (DI)(BX*1)
	ADDQ        $32, BX
	DECQ        CX
	JNE         dblk
	ADDQ        R11, DI
	ADDQ        R10, SI
	DECQ        R8
	JNE         dpix

ddone:
	VZEROUPPER
	RET

// func maxFMA(o, a *float32, n int)
// o[i] = max(o[i], a[i]) for n a multiple of 8 (AVX, with the FMA-level
// CPUs the other kernels need).
TEXT ·maxFMA(SB), NOSPLIT, $0-24
	MOVQ o+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JEQ  xdone

xloop:
	VMOVUPS (DI), Y0
	VMAXPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, DI
	ADDQ    $32, SI
	DECQ    CX
	JNE     xloop

xdone:
	VZEROUPPER
	RET
