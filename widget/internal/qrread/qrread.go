// Package qrread decodes QR codes with zxing-cpp (libzxing-dev), an
// implementation independent of the widget's encoder, so the browser test
// can check that the code it renders scans to the verification link.
package qrread

/*
#cgo pkg-config: zxing
#cgo CXXFLAGS: -std=c++17 -DZX_USE_UTF8
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"image/draw"
	"unsafe"
)

// ErrNotFound means no QR code was decoded.
var ErrNotFound = errors.New("qrread: no QR code decoded")

const maxText = 4096

// Read returns the text of the first QR code in img.
func Read(img image.Image) (string, error) {
	b := img.Bounds()
	if b.Dx() <= 0 || b.Dy() <= 0 {
		return "", ErrNotFound
	}
	gray := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(gray, gray.Bounds(), img, b.Min, draw.Src)
	out := make([]byte, maxText)
	rc := C.idg_qr_read((*C.uint8_t)(unsafe.Pointer(&gray.Pix[0])), C.int(b.Dx()), C.int(b.Dy()),
		(*C.char)(unsafe.Pointer(&out[0])), C.int(len(out)))
	text := C.GoString((*C.char)(unsafe.Pointer(&out[0])))
	switch rc {
	case 0:
		return text, nil
	case 1:
		return "", ErrNotFound
	}
	return "", fmt.Errorf("qrread: %s", text)
}
