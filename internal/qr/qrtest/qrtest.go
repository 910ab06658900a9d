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
	"golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/qr"
)

// Read decodes the one QR code in img, a screenshot or a drawing.
//
// gozxing's finder-pattern search alone misreads valid codes: of 2,000
// random links of ours drawn at 3 to 5 px per module it failed on about
// 2 % (Reed-Solomon errors after sampling a wrong grid), codes zbarimg
// reads, so every test that reads a random link back failed now and then
// (2026-11-28; CI's fuzzing found the first). When the search fails, Read
// takes the grid where it lies (PURE_BARCODE: an image holding the code
// alone, as Draw's drawings and the tests' element screenshots do), then
// searches again at half size; on 12,000 drawn and resampled codes
// (nearest and bilinear, 140 to 220 px) the three together missed none.
// Each answer is a decode the reader checked, so a second try cannot let a
// wrong code pass.
func Read(img image.Image) (string, error) {
	text, err := decode(img, gozxing.DecodeHintType_TRY_HARDER)
	if err == nil {
		return text, nil
	}
	if t, e := decode(img, gozxing.DecodeHintType_PURE_BARCODE); e == nil {
		return t, nil
	}
	b := img.Bounds()
	half := image.NewGray(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	draw.BiLinear.Scale(half, half.Bounds(), img, b, draw.Src, nil)
	if t, e := decode(half, gozxing.DecodeHintType_TRY_HARDER); e == nil {
		return t, nil
	}
	return "", err
}

// decode reads img with gozxing's QR reader under one hint.
func decode(img image.Image, hint gozxing.DecodeHintType) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", fmt.Errorf("qrtest: %w", err)
	}
	r, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{hint: true})
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
