package ocrb

import (
	"encoding/binary"
	"fmt"
)

// pathOp is one outline command in font units, y up: a move, a line or a
// cubic curve to its last point.
type pathOp struct {
	kind int // moveTo, lineTo, cubeTo
	pts  [3][2]float64
}

const (
	moveTo = iota
	lineTo
	cubeTo
)

// outline runs glyph's Type 2 charstring.
func (c *cff) outline(glyph int) ([]pathOp, error) {
	if glyph < 0 || glyph >= len(c.charStrings) {
		return nil, fmt.Errorf("ocrb: glyph %d: %w", glyph, errCFF)
	}
	r := &runner{c: c, budget: maxOps}
	if err := r.run(c.charStrings[glyph], 0); err != nil && err != errEnd {
		return nil, fmt.Errorf("ocrb: glyph %d: %w", glyph, err)
	}
	return r.path, nil
}

var errEnd = fmt.Errorf("endchar")

type runner struct {
	c         *cff
	stack     []float64
	x, y      float64
	path      []pathOp
	stems     int
	haveWidth bool
	budget    int // operators left: subroutines calling each other cannot loop for long
}

// maxOps bounds one glyph's operators; OCR-B's longest runs a few hundred.
const maxOps = 20000

func bias(n int) int {
	switch {
	case n < 1240:
		return 107
	case n < 33900:
		return 1131
	}
	return 32768
}

func (r *runner) line(dx, dy float64) {
	r.x, r.y = r.x+dx, r.y+dy
	r.path = append(r.path, pathOp{kind: lineTo, pts: [3][2]float64{{r.x, r.y}}})
}

func (r *runner) curve(a, b, c, d, e, f float64) {
	x1, y1 := r.x+a, r.y+b
	x2, y2 := x1+c, y1+d
	r.x, r.y = x2+e, y2+f
	r.path = append(r.path, pathOp{kind: cubeTo, pts: [3][2]float64{{x1, y1}, {x2, y2}, {r.x, r.y}}})
}

func (r *runner) move(dx, dy float64) {
	r.x, r.y = r.x+dx, r.y+dy
	r.path = append(r.path, pathOp{kind: moveTo, pts: [3][2]float64{{r.x, r.y}}})
}

// width drops the optional advance-width operand the first stack-clearing
// operator may carry (it is present when the count is off by one).
func (r *runner) width(expectOdd bool) {
	if !r.haveWidth {
		r.haveWidth = true
		if (len(r.stack)%2 == 1) != expectOdd && len(r.stack) > 0 {
			r.stack = r.stack[1:]
		}
	}
}

// run interprets one charstring (or subroutine, at depth).
func (r *runner) run(cs []byte, depth int) error {
	if depth > 10 {
		return errCFF
	}
	s := func(i int) float64 { return r.stack[i] }
	for i := 0; i < len(cs); {
		b := cs[i]
		i++
		switch {
		case b == 28:
			if i+2 > len(cs) {
				return errCFF
			}
			r.stack = append(r.stack, float64(int16(binary.BigEndian.Uint16(cs[i:]))))
			i += 2
			continue
		case b >= 32 && b <= 246:
			r.stack = append(r.stack, float64(int(b)-139))
			continue
		case b >= 247 && b <= 254:
			if i >= len(cs) {
				return errCFF
			}
			v := (int(b)-247)*256 + int(cs[i]) + 108
			if b >= 251 {
				v = -(int(b)-251)*256 - int(cs[i]) - 108
			}
			r.stack = append(r.stack, float64(v))
			i++
			continue
		case b == 255:
			if i+4 > len(cs) {
				return errCFF
			}
			r.stack = append(r.stack, float64(int32(binary.BigEndian.Uint32(cs[i:])))/65536)
			i += 4
			continue
		}
		if len(r.stack) > 48 || r.budget <= 0 {
			return errCFF
		}
		r.budget--
		n := len(r.stack)
		switch b {
		case 1, 3, 18, 23: // hstem, vstem, hstemhm, vstemhm
			r.width(false)
			r.stems += len(r.stack) / 2
		case 19, 20: // hintmask, cntrmask: implied vstems, then the mask bytes
			r.width(false)
			r.stems += len(r.stack) / 2
			i += (r.stems + 7) / 8
		case 21: // rmoveto
			r.width(false)
			if len(r.stack) < 2 {
				return errCFF
			}
			r.move(s(len(r.stack)-2), s(len(r.stack)-1))
		case 22: // hmoveto
			r.width(true)
			if len(r.stack) < 1 {
				return errCFF
			}
			r.move(s(len(r.stack)-1), 0)
		case 4: // vmoveto
			r.width(true)
			if len(r.stack) < 1 {
				return errCFF
			}
			r.move(0, s(len(r.stack)-1))
		case 5: // rlineto
			for j := 0; j+1 < n; j += 2 {
				r.line(s(j), s(j+1))
			}
		case 6, 7: // hlineto, vlineto: alternating
			horiz := b == 6
			for j := 0; j < n; j++ {
				if horiz {
					r.line(s(j), 0)
				} else {
					r.line(0, s(j))
				}
				horiz = !horiz
			}
		case 8: // rrcurveto
			for j := 0; j+5 < n; j += 6 {
				r.curve(s(j), s(j+1), s(j+2), s(j+3), s(j+4), s(j+5))
			}
		case 24: // rcurveline
			j := 0
			for ; j+5 < n-2; j += 6 {
				r.curve(s(j), s(j+1), s(j+2), s(j+3), s(j+4), s(j+5))
			}
			if j+1 < n {
				r.line(s(j), s(j+1))
			}
		case 25: // rlinecurve
			j := 0
			for ; j+1 < n-6; j += 2 {
				r.line(s(j), s(j+1))
			}
			if j+5 < n {
				r.curve(s(j), s(j+1), s(j+2), s(j+3), s(j+4), s(j+5))
			}
		case 26: // vvcurveto
			j, dx1 := 0, 0.0
			if n%2 == 1 {
				dx1, j = s(0), 1
			}
			for ; j+3 < n; j += 4 {
				r.curve(dx1, s(j), s(j+1), s(j+2), 0, s(j+3))
				dx1 = 0
			}
		case 27: // hhcurveto
			j, dy1 := 0, 0.0
			if n%2 == 1 {
				dy1, j = s(0), 1
			}
			for ; j+3 < n; j += 4 {
				r.curve(s(j), dy1, s(j+1), s(j+2), s(j+3), 0)
				dy1 = 0
			}
		case 30, 31: // vhcurveto, hvcurveto: alternating tangents
			horiz := b == 31
			for j := 0; j+3 < n; j += 4 {
				last := 0.0
				if j+5 == n {
					last = s(j + 4)
				}
				if horiz {
					r.curve(s(j), 0, s(j+1), s(j+2), last, s(j+3))
				} else {
					r.curve(0, s(j), s(j+1), s(j+2), s(j+3), last)
				}
				horiz = !horiz
			}
		case 10, 29: // callsubr, callgsubr
			if n == 0 {
				return errCFF
			}
			subrs := r.c.subrs
			if b == 29 {
				subrs = r.c.gsubrs
			}
			k := int(s(n-1)) + bias(len(subrs))
			r.stack = r.stack[:n-1]
			if k < 0 || k >= len(subrs) {
				return errCFF
			}
			if err := r.run(subrs[k], depth+1); err != nil {
				return err
			}
			continue
		case 11: // return
			return nil
		case 14: // endchar
			r.width(false)
			return errEnd
		case 12:
			if i >= len(cs) {
				return errCFF
			}
			esc := cs[i]
			i++
			if err := r.flex(esc); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: operator %d", errCFF, b)
		}
		r.stack = r.stack[:0]
	}
	return nil
}

// flex draws the four flex operators as their two curves (the flex depth
// only matters to hinting, which a rasteriser at these sizes does not do).
func (r *runner) flex(esc byte) error {
	st := r.stack
	n := len(st)
	switch esc {
	case 35: // flex
		if n < 12 {
			return errCFF
		}
		r.curve(st[0], st[1], st[2], st[3], st[4], st[5])
		r.curve(st[6], st[7], st[8], st[9], st[10], st[11])
	case 34: // hflex
		if n < 7 {
			return errCFF
		}
		y0 := r.y
		r.curve(st[0], 0, st[1], st[2], st[3], 0)
		r.curve(st[4], 0, st[5], y0-r.y, st[6], 0)
	case 36: // hflex1
		if n < 9 {
			return errCFF
		}
		y0 := r.y
		r.curve(st[0], st[1], st[2], st[3], st[4], 0)
		r.curve(st[5], 0, st[6], st[7], st[8], y0-(r.y+st[7]))
	case 37: // flex1
		if n < 11 {
			return errCFF
		}
		x0, y0 := r.x, r.y
		dx := st[0] + st[2] + st[4] + st[6] + st[8]
		dy := st[1] + st[3] + st[5] + st[7] + st[9]
		r.curve(st[0], st[1], st[2], st[3], st[4], st[5])
		if abs(dx) > abs(dy) {
			r.curve(st[6], st[7], st[8], st[9], st[10], y0-(r.y+st[7]+st[9]))
		} else {
			r.curve(st[6], st[7], st[8], st[9], x0-(r.x+st[6]+st[8]), st[10])
		}
	default:
		return fmt.Errorf("%w: operator 12 %d", errCFF, esc)
	}
	return nil
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
