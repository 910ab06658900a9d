// Package imgio turns untrusted image bytes (JPEG, PNG, WebP) into upright
// pictures: an image.Image for the card and barcode readers, an RGB tensor
// for the face engine. Oversized input is refused before any pixel is
// decoded, and the EXIF orientation is applied in all three formats.
package imgio

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // registers JPEG
	_ "image/png"  // registers PNG

	_ "golang.org/x/image/webp" // registers WebP

	"github.com/idgate/idgate/verifier/face/tensor"
)

// DefaultMaxPixels bounds an image at 12 megapixels (a 4000×3000 phone
// photo) when Limits.MaxPixels is 0. The float tensor costs 12 bytes a
// pixel (144 MB at the bound), so this is what keeps a hostile upload's
// memory bounded on the face path.
const DefaultMaxPixels = 12_000_000

// Limits bound one image.
type Limits struct {
	// MaxBytes bounds the encoded image; 0 leaves it to the caller (who
	// read the bytes through a bound of its own).
	MaxBytes int
	// MaxPixels bounds width × height as the header declares it; 0 means
	// DefaultMaxPixels.
	MaxPixels int
}

// Upload is the end-user API's bound on one photo: 10 MB and 40 MP, which
// covers every phone camera in use (the card and barcode readers accept
// 40 MP; their grey copy stays under 40 MB).
var Upload = Limits{MaxBytes: 10 << 20, MaxPixels: 40_000_000}

// Errors callers branch on (the end-user API maps them to
// image_unsupported and image_too_large).
var (
	// ErrFormat: not a decodable JPEG, PNG or WebP image (unknown format,
	// truncated or corrupt).
	ErrFormat = errors.New("image is not a readable JPEG, PNG or WebP")
	// ErrTooLarge: more bytes than Limits.MaxBytes, or a header declaring
	// more pixels than Limits.MaxPixels.
	ErrTooLarge = errors.New("image too large")
)

// Decode reads an image into a [1, h, w, 3] tensor of RGB values in 0..255,
// turned upright according to its EXIF orientation.
func Decode(data []byte, lim Limits) (*tensor.Tensor, error) {
	img, format, err := lim.decode(data)
	if err != nil {
		return nil, err
	}
	var t *tensor.Tensor
	if m := lossyWebP(img, format); m != nil {
		t = webpToTensor(m)
	} else {
		t = ToTensor(img)
	}
	return orient(t, orientation(data)), nil
}

// DecodeImage reads an image turned upright according to its EXIF
// orientation. An upright JPEG or PNG comes back as the decoder made it
// (no copy); a turned one or a lossy WebP as an *image.RGBA.
func DecodeImage(data []byte, lim Limits) (image.Image, error) {
	img, format, err := lim.decode(data)
	if err != nil {
		return nil, err
	}
	o := orientation(data)
	if m := lossyWebP(img, format); m != nil {
		return orientRGBA(webpToRGBA(m), o), nil
	}
	if o <= 1 || o > 8 {
		return img, nil
	}
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Rect, img, b.Min, draw.Src) // fast paths for YCbCr, Gray, NRGBA
	return orientRGBA(rgba, o), nil
}

// decode checks the byte and pixel bounds, then decodes.
func (lim Limits) decode(data []byte) (image.Image, string, error) {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return nil, "", fmt.Errorf("decode image: %d bytes exceed %d: %w", len(data), lim.MaxBytes, ErrTooLarge)
	}
	maxPixels := lim.MaxPixels
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("decode image header: %w: %v", ErrFormat, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPixels/max(cfg.Height, 1) {
		return nil, "", fmt.Errorf("decode image: %dx%d exceeds %d pixels: %w", cfg.Width, cfg.Height, maxPixels, ErrTooLarge)
	}
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("decode image: %w: %v", ErrFormat, err)
	}
	return img, format, nil
}

// lossyWebP returns the picture of a lossy WebP (with or without alpha,
// which is ignored as for PNG), nil for anything else.
func lossyWebP(img image.Image, format string) *image.YCbCr {
	switch m := img.(type) {
	case *image.YCbCr:
		if format == "webp" {
			return m
		}
	case *image.NYCbCrA:
		return &m.YCbCr
	}
	return nil
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
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w]
			for x, v := range row {
				i := (y*w + x) * 3
				d[i], d[i+1], d[i+2] = float32(v), float32(v), float32(v)
			}
		}
	case *image.NRGBA:
		fourBytes(d, m.Pix, m.Stride, m.PixOffset(b.Min.X, b.Min.Y), w, h)
	case *image.RGBA:
		// Opaque (our card images and decoded photos), so the
		// premultiplied values are the colours.
		fourBytes(d, m.Pix, m.Stride, m.PixOffset(b.Min.X, b.Min.Y), w, h)
	case *image.YCbCr:
		// JPEG: the standard library's conversion (YCbCrToRGB equals
		// YCbCr.RGBA() >> 8 for every input), without At's allocation per
		// pixel. Chroma is the sample covering each pixel, as At takes it.
		for y := range h {
			for x := range w {
				yi, ci := m.YOffset(b.Min.X+x, b.Min.Y+y), m.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bl := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
				i := (y*w + x) * 3
				d[i], d[i+1], d[i+2] = float32(r), float32(g), float32(bl)
			}
		}
	default:
		// The rest: the colour model's own conversion.
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

// fourBytes copies the RGB of 4-byte pixels (RGBA or NRGBA rows).
func fourBytes(d []float32, pix []uint8, stride, off, w, h int) {
	for y := range h {
		row := pix[off+y*stride:][:4*w]
		for x := range w {
			i := (y*w + x) * 3
			d[i], d[i+1], d[i+2] = float32(row[4*x]), float32(row[4*x+1]), float32(row[4*x+2])
		}
	}
}
