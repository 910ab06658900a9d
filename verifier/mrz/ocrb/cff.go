package ocrb

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Debian's OCR-B draws some glyphs ('<' and '8' among the zone's) with the
// Type 2 flex operators, which golang.org/x/image/font/sfnt does not
// implement: the outlines are read here, by a small interpreter of the
// charstrings of the font's CFF table (Adobe Technical Notes 5176, the
// CFF format, and 5177, Type 2 charstrings). sfnt still maps characters to
// glyphs and gives the advance.

var errCFF = errors.New("ocrb: malformed CFF table")

// cff is what outlines need of the table: the glyphs' charstrings and the
// global and local subroutines.
type cff struct {
	charStrings, gsubrs, subrs [][]byte
}

// cffTable finds the 'CFF ' table of an OpenType file.
func cffTable(otf []byte) ([]byte, error) {
	if len(otf) < 12 {
		return nil, errCFF
	}
	n := int(binary.BigEndian.Uint16(otf[4:]))
	for i := 0; i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(otf) {
			return nil, errCFF
		}
		if string(otf[rec:rec+4]) == "CFF " {
			off, size := int(binary.BigEndian.Uint32(otf[rec+8:])), int(binary.BigEndian.Uint32(otf[rec+12:]))
			if off < 0 || size < 0 || off+size > len(otf) {
				return nil, errCFF
			}
			return otf[off : off+size], nil
		}
	}
	return nil, fmt.Errorf("%w: no CFF table", errCFF)
}

// parseCFF reads the INDEXes and DICTs outlines need.
func parseCFF(t []byte) (*cff, error) {
	if len(t) < 4 {
		return nil, errCFF
	}
	pos := int(t[2])
	var err error
	var names, top, strs [][]byte
	c := &cff{}
	for _, dst := range []*[][]byte{&names, &top, &strs, &c.gsubrs} {
		if *dst, pos, err = readIndex(t, pos); err != nil {
			return nil, err
		}
	}
	if len(top) == 0 {
		return nil, errCFF
	}
	td, err := readDict(top[0])
	if err != nil {
		return nil, err
	}
	cs, ok := td[17]
	priv, ok2 := td[18]
	if !ok || len(cs) < 1 || !ok2 || len(priv) < 2 {
		return nil, fmt.Errorf("%w: no CharStrings or Private", errCFF)
	}
	if c.charStrings, _, err = readIndex(t, int(cs[0])); err != nil {
		return nil, err
	}
	pSize, pOff := int(priv[0]), int(priv[1])
	if pOff < 0 || pSize < 0 || pOff+pSize > len(t) {
		return nil, errCFF
	}
	pd, err := readDict(t[pOff : pOff+pSize])
	if err != nil {
		return nil, err
	}
	if s, ok := pd[19]; ok && len(s) > 0 {
		if c.subrs, _, err = readIndex(t, pOff+int(s[0])); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// readIndex reads the INDEX at pos and returns its items and the position
// after it.
func readIndex(t []byte, pos int) ([][]byte, int, error) {
	if pos < 0 || pos+2 > len(t) {
		return nil, 0, errCFF
	}
	count := int(binary.BigEndian.Uint16(t[pos:]))
	if count == 0 {
		return nil, pos + 2, nil
	}
	if pos+3 > len(t) {
		return nil, 0, errCFF
	}
	offSize := int(t[pos+2])
	if offSize < 1 || offSize > 4 || pos+3+(count+1)*offSize > len(t) {
		return nil, 0, errCFF
	}
	off := func(i int) int {
		v := 0
		for _, b := range t[pos+3+i*offSize : pos+3+(i+1)*offSize] {
			v = v<<8 | int(b)
		}
		return v
	}
	base := pos + 3 + (count+1)*offSize - 1
	items := make([][]byte, count)
	for i := range items {
		a, b := base+off(i), base+off(i+1)
		if a < base+1 || b < a || b > len(t) {
			return nil, 0, errCFF
		}
		items[i] = t[a:b]
	}
	return items, base + off(count), nil
}

// readDict reads a DICT's integer operands by operator (escaped operators
// as 1200+n); real operands are skipped as zero, as outlines need none.
func readDict(d []byte) (map[int][]float64, error) {
	out := map[int][]float64{}
	var ops []float64
	for i := 0; i < len(d); {
		b := d[i]
		switch {
		case b <= 21:
			op := int(b)
			if b == 12 {
				if i+1 >= len(d) {
					return nil, errCFF
				}
				op, i = 1200+int(d[i+1]), i+1
			}
			out[op], ops = ops, nil
			i++
		case b == 28 || b == 29:
			n := 3
			if b == 29 {
				n = 5
			}
			if i+n > len(d) {
				return nil, errCFF
			}
			if b == 28 {
				ops = append(ops, float64(int16(binary.BigEndian.Uint16(d[i+1:]))))
			} else {
				ops = append(ops, float64(int32(binary.BigEndian.Uint32(d[i+1:]))))
			}
			i += n
		case b == 30:
			for i++; i < len(d) && d[i]&0x0f != 0x0f && d[i]>>4 != 0x0f; i++ {
			}
			ops = append(ops, 0)
			i++
		case b >= 32 && b <= 246:
			ops = append(ops, float64(int(b)-139))
			i++
		case b >= 247 && b <= 254:
			if i+1 >= len(d) {
				return nil, errCFF
			}
			v := (int(b)-247)*256 + int(d[i+1]) + 108
			if b >= 251 {
				v = -(int(b)-251)*256 - int(d[i+1]) - 108
			}
			ops = append(ops, float64(v))
			i += 2
		default:
			return nil, errCFF
		}
	}
	return out, nil
}
