// Package qrtest reads QR codes back in tests (from a screenshot, or from a
// qr.Code drawn here) with gozxing, a pure-Go port of ZXing, so checking a
// code needs no cgo.
package qrtest

import (
	"fmt"
	"image"
	"image/color"
	"regexp"
	"strconv"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/idgate/idgate/internal/qr"
)

// Read decodes the one QR code in img.
func Read(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	r, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	return r.GetText(), nil
}

// ReadDrawn decodes a code that Draw drew: the image holds the code alone
// on its quiet zone, so the decoder reads the grid where Draw put it
// (gozxing's PURE_BARCODE) instead of searching for finder patterns, which
// is Read's job, for screenshots. On exact drawings that search misses a
// valid code now and then: fuzzing found "https://v.oxampv/ab/" unread at
// 2 px per module and "https://v0example<v/abc" at 4, 6 and 8 (read at 1
// to 3), both read at every scale by zbarimg and by this (2026-11-28).
func ReadDrawn(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	r, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	return r.GetText(), nil
}

// run is one subpath of qr.Code.Path: a horizontal run of dark modules.
var run = regexp.MustCompile(`^M(\d+) (\d+)h(\d+)v1h-(\d+)z`)

// Draw rasterises c at scale pixels per module, reading its path the way
// an SVG renderer would fill it; any other path syntax is an error.
func Draw(c qr.Code, scale int) (image.Image, error) {
	img := image.NewGray(image.Rect(0, 0, c.Size*scale, c.Size*scale))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for p := c.Path; p != ""; {
		m := run.FindStringSubmatch(p)
		if m == nil || m[3] != m[4] {
			return nil, fmt.Errorf("qrtest: path not made of runs at %.20q", p)
		}
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		w, _ := strconv.Atoi(m[3])
		if x+w > c.Size || y >= c.Size {
			return nil, fmt.Errorf("qrtest: run %q outside the %d-module code", m[0], c.Size)
		}
		for py := y * scale; py < (y+1)*scale; py++ {
			for px := x * scale; px < (x+w)*scale; px++ {
				img.SetGray(px, py, color.Gray{})
			}
		}
		p = p[len(m[0]):]
	}
	return img, nil
}
