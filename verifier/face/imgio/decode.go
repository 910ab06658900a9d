// Package imgio turns untrusted image bytes (JPEG, PNG, WebP) into RGB
// tensors, refusing decompression bombs before any pixel is decoded.
package imgio

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // registers JPEG
	_ "image/png"  // registers PNG

	_ "golang.org/x/image/webp" // registers WebP

	"github.com/idgate/idgate/verifier/face/tensor"
)

// DefaultMaxPixels bounds an image at 12 megapixels (a 4000×3000 phone
// photo). The float tensor costs 12 bytes a pixel (144 MB at the bound), so
// this is what keeps a hostile upload's memory bounded.
const DefaultMaxPixels = 12_000_000

var (
	// ErrFormat: not a decodable JPEG, PNG or WebP image.
	ErrFormat = errors.New("image is not a readable JPEG, PNG or WebP")
	// ErrTooLarge: the header declares more pixels than allowed.
	ErrTooLarge = errors.New("image has too many pixels")
)

// Decode reads an image into a [1, h, w, 3] tensor of RGB values in 0..255,
// turned upright according to its EXIF orientation (JPEG, PNG and WebP
// alike). maxPixels ≤ 0 means DefaultMaxPixels.
func Decode(data []byte, maxPixels int) (*tensor.Tensor, error) {
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode image header: %w: %v", ErrFormat, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPixels/max(cfg.Height, 1) {
		return nil, fmt.Errorf("decode image: %dx%d exceeds %d pixels: %w", cfg.Width, cfg.Height, maxPixels, ErrTooLarge)
	}
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode image: %w: %v", ErrFormat, err)
	}
	var t *tensor.Tensor
	switch m := img.(type) {
	case *image.YCbCr:
		if format == "webp" {
			t = webpToTensor(m)
		}
	case *image.NYCbCrA: // lossy WebP with alpha (ignored, as for PNG)
		t = webpToTensor(&m.YCbCr)
	}
	if t == nil {
		t = ToTensor(img)
	}
	return orient(t, orientation(data)), nil
}

// ToTensor converts a decoded image to a [1, h, w, 3] RGB tensor.
func ToTensor(img image.Image) *tensor.Tensor {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	t := tensor.New(1, h, w, 3)
	d := t.Data
	switch m := img.(type) {
	case *image.Gray:
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+w]
			for x, v := range row {
				i := (y*w + x) * 3
				d[i], d[i+1], d[i+2] = float32(v), float32(v), float32(v)
			}
		}
	case *image.NRGBA:
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			for x := range w {
				i := (y*w + x) * 3
				d[i], d[i+1], d[i+2] = float32(row[4*x]), float32(row[4*x+1]), float32(row[4*x+2])
			}
		}
	default:
		// YCbCr (JPEG) and the rest: the colour model's own conversion, so
		// chroma subsampling and colour maths follow the standard library.
		for y := range h {
			for x := range w {
				r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				i := (y*w + x) * 3
				d[i], d[i+1], d[i+2] = float32(r>>8), float32(g>>8), float32(bl>>8)
			}
		}
	}
	return t
}
