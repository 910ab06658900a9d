// Package zxing binds the PDF417 reader and writer of zxing-cpp (1.4, Debian
// package libzxing-dev) through a small C shim. It and license/tesseract
// are the only cgo in the license engine; everything around them is pure Go.
package zxing

/*
#cgo pkg-config: zxing
#cgo CXXFLAGS: -std=c++17 -DZX_USE_UTF8
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"unsafe"
)

// ErrNotFound means the library found no decodable PDF417 symbol.
var ErrNotFound = errors.New("zxing: no PDF417 symbol decoded")

// MaxPayload bounds Write's input: a PDF417 symbol holds at most about
// 1.1 KB of mixed bytes at EC level 5, and AAMVA payloads stay well below.
const MaxPayload = 2048

const errBufLen = 256

// Result is one decoded symbol.
type Result struct {
	// Bytes is the raw content, byte for byte as encoded.
	Bytes []byte
}

// Read decodes the first PDF417 symbol in img. tryHarder lets the library
// also try its own rotations by 90° and downscaled copies, at several
// times the cost.
func Read(img *image.Gray, tryHarder bool) (Result, error) {
	b := img.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 || len(img.Pix) == 0 {
		return Result{}, ErrNotFound
	}
	if img.Stride < b.Dx() || len(img.Pix) < (b.Dy()-1)*img.Stride+b.Dx() {
		return Result{}, fmt.Errorf("zxing read: inconsistent image buffer")
	}
	var (
		out    *C.uint8_t
		outLen C.int
		errBuf [errBufLen]C.char
	)
	th := C.int(0)
	if tryHarder {
		th = 1
	}
	// Pix starts at the image's Min point, whatever the bounds are.
	rc := C.idg_pdf417_read((*C.uint8_t)(unsafe.Pointer(&img.Pix[0])), C.int(b.Dx()), C.int(b.Dy()),
		C.int(img.Stride), th, &out, &outLen, &errBuf[0], errBufLen)
	switch rc {
	case C.IDG_OK:
	case C.IDG_NOT_FOUND:
		return Result{}, ErrNotFound
	default:
		return Result{}, fmt.Errorf("zxing read: %s", C.GoString(&errBuf[0]))
	}
	defer C.idg_free(unsafe.Pointer(out))
	return Result{Bytes: C.GoBytes(unsafe.Pointer(out), outLen)}, nil
}

// Symbol is an encoded PDF417 symbol as a grid of cells, one module wide;
// the writer repeats each row of codewords over several cells of height.
type Symbol struct {
	Width, Height int
	// Dark holds Width*Height cells row by row, true for a bar.
	Dark []bool
}

// Write encodes data byte for byte (ISO 8859-1, no ECI) at error-correction
// level ecLevel (0-8).
func Write(data []byte, ecLevel int) (*Symbol, error) {
	if len(data) == 0 || len(data) > MaxPayload {
		return nil, fmt.Errorf("zxing write: payload of %d bytes outside 1..%d", len(data), MaxPayload)
	}
	if ecLevel < 0 || ecLevel > 8 {
		return nil, fmt.Errorf("zxing write: EC level %d outside 0..8", ecLevel)
	}
	var (
		out    *C.uint8_t
		w, h   C.int
		errBuf [errBufLen]C.char
	)
	rc := C.idg_pdf417_write((*C.uint8_t)(unsafe.Pointer(&data[0])), C.int(len(data)), C.int(ecLevel),
		&out, &w, &h, &errBuf[0], errBufLen)
	if rc != C.IDG_OK {
		return nil, fmt.Errorf("zxing write: %s", C.GoString(&errBuf[0]))
	}
	defer C.idg_free(unsafe.Pointer(out))
	cells := unsafe.Slice((*byte)(unsafe.Pointer(out)), int(w)*int(h))
	s := &Symbol{Width: int(w), Height: int(h), Dark: make([]bool, len(cells))}
	for i, c := range cells {
		s.Dark[i] = c != 0
	}
	return s, nil
}

// Image renders the symbol black on white with module px per cell and a
// quiet zone of quiet modules on every side.
func (s *Symbol) Image(module, quiet int) *image.Gray {
	if module < 1 {
		module = 1
	}
	if quiet < 0 {
		quiet = 0
	}
	w, h := (s.Width+2*quiet)*module, (s.Height+2*quiet)*module
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y := 0; y < s.Height; y++ {
		for x := 0; x < s.Width; x++ {
			if !s.Dark[y*s.Width+x] {
				continue
			}
			for dy := 0; dy < module; dy++ {
				row := ((quiet+y)*module + dy) * img.Stride
				for dx := 0; dx < module; dx++ {
					img.Pix[row+(quiet+x)*module+dx] = 0
				}
			}
		}
	}
	return img
}
