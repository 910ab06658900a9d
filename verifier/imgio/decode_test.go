package imgio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
)

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeConvertsToRGB(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	img.Set(0, 0, color.NRGBA{R: 10, G: 20, B: 30, A: 255})
	img.Set(1, 0, color.NRGBA{R: 200, G: 100, B: 0, A: 255})
	got, err := Decode(encodePNG(t, img), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{10, 20, 30, 200, 100, 0}
	if len(got.Shape) != 4 || got.Shape[1] != 1 || got.Shape[2] != 2 || got.Shape[3] != 3 {
		t.Fatalf("shape %v", got.Shape)
	}
	for i, v := range want {
		if got.Data[i] != v {
			t.Fatalf("pixel data %v, want %v", got.Data, want)
		}
	}
}

func TestDecodeRealFaces(t *testing.T) {
	for _, f := range []string{"labeled/raj/raj1.png", "groups/bbt4.jpg"} {
		data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", f))
		if err != nil {
			t.Fatal(err)
		}
		img, err := Decode(data, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var sum float64
		for _, v := range img.Data {
			sum += float64(v)
		}
		if mean := sum / float64(len(img.Data)); mean < 20 || mean > 235 {
			t.Errorf("%s: implausible mean pixel %v", f, mean)
		}
	}
}

func TestDecodeRejectsBombsAndJunk(t *testing.T) {
	big := encodePNG(t, image.NewGray(image.Rect(0, 0, 100, 100)))
	for name, dec := range decoders {
		if err := dec(big, Limits{MaxPixels: 9999}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: 10000 px with a 9999 limit: got %v, want ErrTooLarge", name, err)
		}
		if err := dec(big, Limits{MaxPixels: 10000, MaxBytes: len(big)}); err != nil {
			t.Errorf("%s: 10000 px with a 10000 limit: %v", name, err)
		}
		if err := dec(big, Limits{MaxBytes: len(big) - 1}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %d bytes with a %d limit: got %v, want ErrTooLarge", name, len(big), len(big)-1, err)
		}
		for _, junk := range [][]byte{nil, []byte("GIF89a"), big[:40]} {
			if err := dec(junk, Limits{}); !errors.Is(err, ErrFormat) {
				t.Errorf("%s: junk %q: got %v, want ErrFormat", name, junk, err)
			}
		}
	}
}

// decoders are the two entry points, reduced to their error.
var decoders = map[string]func([]byte, Limits) error{
	"Decode":      func(b []byte, l Limits) error { _, err := Decode(b, l); return err },
	"DecodeImage": func(b []byte, l Limits) error { _, err := DecodeImage(b, l); return err },
}

func TestReadFileBound(t *testing.T) {
	name := filepath.Join(t.TempDir(), "img.png")
	data := encodePNG(t, image.NewGray(image.Rect(0, 0, 10, 10)))
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(name, Limits{MaxBytes: len(data)}); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("at the bound: %d bytes, %v", len(got), err)
	}
	if _, err := ReadFile(name, Limits{MaxBytes: len(data) - 1}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the bound: got %v, want ErrTooLarge", err)
	}
	if _, err := ReadFile(name+".missing", Upload); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// FuzzDecode: both entry points stay within bounds, never panic, fail only
// with the two coded errors, and agree on every image they accept.
func FuzzDecode(f *testing.F) {
	f.Add(encodePNG(f, image.NewGray(image.Rect(0, 0, 3, 2))))
	f.Add(withOrientation(halves(f), 6, binary.LittleEndian))
	f.Add([]byte("\xff\xd8\xff\xe0"))
	lim := Limits{MaxBytes: 1 << 20, MaxPixels: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		ten, err := Decode(data, lim)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("uncoded error %v", err)
			}
			return
		}
		if len(ten.Data) != 3*ten.Shape[1]*ten.Shape[2] {
			t.Fatalf("shape %v holds %d values", ten.Shape, len(ten.Data))
		}
		img, err := DecodeImage(data, lim)
		if err != nil {
			t.Fatalf("Decode accepted, DecodeImage: %v", err)
		}
		if b := img.Bounds(); b.Dx() != ten.Shape[2] || b.Dy() != ten.Shape[1] {
			t.Fatalf("DecodeImage %v, Decode %v", b, ten.Shape)
		}
	})
}

// TestToTensorYCbCr: the JPEG fast path gives At's colours for every
// chroma subsampling, also on a sub-image.
func TestToTensorYCbCr(t *testing.T) {
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410} {
		m := image.NewYCbCr(image.Rect(0, 0, 19, 13), ratio)
		for i := range m.Y {
			m.Y[i] = uint8(i * 7)
		}
		for i := range m.Cb {
			m.Cb[i], m.Cr[i] = uint8(i*13), uint8(255-i*5)
		}
		for _, img := range []*image.YCbCr{m, m.SubImage(image.Rect(3, 2, 17, 11)).(*image.YCbCr)} {
			got := ToTensor(img)
			b := img.Bounds()
			for y := range b.Dy() {
				for x := range b.Dx() {
					r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
					i := (y*b.Dx() + x) * 3
					if got.Data[i] != float32(r>>8) || got.Data[i+1] != float32(g>>8) || got.Data[i+2] != float32(bl>>8) {
						t.Fatalf("%v %v: pixel %d,%d is %v, want %d %d %d", ratio, b, x, y, got.Data[i:i+3], r>>8, g>>8, bl>>8)
					}
				}
			}
		}
	}
}
