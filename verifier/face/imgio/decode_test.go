package imgio

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
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
	got, err := Decode(encodePNG(t, img), 0)
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
		data, err := os.ReadFile(testkit.Shared(t, "testdata", "faces", f))
		if err != nil {
			t.Fatal(err)
		}
		img, err := Decode(data, 0)
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
	if _, err := Decode(big, 9999); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("10000 px with a 9999 limit: got %v, want ErrTooLarge", err)
	}
	if _, err := Decode(big, 10000); err != nil {
		t.Fatalf("10000 px with a 10000 limit: %v", err)
	}
	for _, junk := range [][]byte{nil, []byte("GIF89a"), big[:40]} {
		if _, err := Decode(junk, 0); !errors.Is(err, ErrFormat) {
			t.Errorf("junk %q: got %v, want ErrFormat", junk, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encodePNG(f, image.NewGray(image.Rect(0, 0, 3, 2))))
	f.Add([]byte("\xff\xd8\xff\xe0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := Decode(data, 1<<20)
		if err == nil && len(img.Data) != 3*img.Shape[1]*img.Shape[2] {
			t.Fatalf("shape %v holds %d values", img.Shape, len(img.Data))
		}
	})
}
