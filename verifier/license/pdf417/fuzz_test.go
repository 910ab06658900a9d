package pdf417

import (
	"context"
	"errors"
	"image"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417/zxing"
)

// fuzzImage turns fuzz bytes into a small grey image: the first two bytes
// give width and height (1-128: big enough for the locator's grid, small
// enough to keep executions and input minimisation fast), the rest are
// pixels, repeated as needed.
func fuzzImage(data []byte) *image.Gray {
	if len(data) < 3 {
		return image.NewGray(image.Rect(0, 0, 1, 1))
	}
	w, h := int(data[0]%128)+1, int(data[1]%128)+1
	px := data[2:]
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = px[i%len(px)]
	}
	return img
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{255, 255, 0, 255})
	f.Add([]byte{200, 40, 0, 0, 255, 255, 0, 255, 0, 255, 255, 255})
	// A real symbol, so mutations explore near-decodable inputs.
	if sym, err := zxing.Write([]byte("@\n\x1e\rANSI 6360"), 3); err == nil {
		img := sym.Image(1, 2)
		w, h := img.Rect.Dx(), img.Rect.Dy()
		if w <= 128 && h <= 128 {
			f.Add(append([]byte{byte(w - 1), byte(h - 1)}, img.Pix...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		img := fuzzImage(data)
		d := Decoder{Budget: 300 * time.Millisecond}
		got, rep, err := d.Decode(context.Background(), img, nil)
		if err != nil {
			if !errors.Is(err, ErrNoBarcode) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if got == nil || rep.Strategy == "" {
			t.Fatalf("success without payload or strategy: %q %+v", got, rep)
		}
	})
}
