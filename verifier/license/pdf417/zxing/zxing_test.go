package zxing

import (
	"bytes"
	"errors"
	"image"
	"testing"
)

func TestRoundTripByteExact(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	cases := map[string][]byte{
		"aamva separators": []byte("@\n\x1e\rANSI 636014080102DL00410288ZC03290015DLDAQD1234562\nDCSPUBLIC\nDACJOHN\r\n"),
		"every byte value": all,
		"single byte":      {0x1e},
		"trailing spaces":  []byte("DAQ123   \n   "),
	}
	for name, payload := range cases {
		for _, ec := range []int{3, 5} {
			for _, module := range []int{2, 3} {
				sym, err := Write(payload, ec)
				if err != nil {
					t.Fatalf("%s ec%d: write: %v", name, ec, err)
				}
				res, err := Read(sym.Image(module, 4), false)
				if err != nil {
					t.Fatalf("%s ec%d m%d: read: %v", name, ec, module, err)
				}
				if !bytes.Equal(res.Bytes, payload) {
					t.Fatalf("%s ec%d m%d: got %q, want %q", name, ec, module, res.Bytes, payload)
				}
			}
		}
	}
}

// Pix of a sub-image starts at its Min point: the binding must pass that
// view, not the parent's origin.
func TestReadSubImage(t *testing.T) {
	sym, err := Write([]byte("sub-image"), 4)
	if err != nil {
		t.Fatal(err)
	}
	src := sym.Image(2, 10)
	canvas := image.NewGray(image.Rect(0, 0, src.Bounds().Dx()+300, src.Bounds().Dy()+300))
	for i := range canvas.Pix {
		canvas.Pix[i] = 0xff
	}
	off := image.Pt(150, 120)
	for y := 0; y < src.Bounds().Dy(); y++ {
		copy(canvas.Pix[(y+off.Y)*canvas.Stride+off.X:], src.Pix[y*src.Stride:y*src.Stride+src.Bounds().Dx()])
	}
	sub := canvas.SubImage(image.Rect(100, 100, canvas.Bounds().Dx(), canvas.Bounds().Dy())).(*image.Gray)
	res, err := Read(sub, false)
	if err != nil || string(res.Bytes) != "sub-image" {
		t.Fatalf("got %q, %v", res.Bytes, err)
	}
	// A view that cuts the symbol in half must not decode.
	half := canvas.SubImage(image.Rect(off.X+src.Bounds().Dx()/2, 0, canvas.Bounds().Dx(), canvas.Bounds().Dy())).(*image.Gray)
	if _, err := Read(half, false); !errors.Is(err, ErrNotFound) {
		t.Fatalf("half a symbol: got %v", err)
	}
}

func TestReadBlankIsNotFound(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 320, 200))
	for i := range img.Pix {
		img.Pix[i] = 0xc0
	}
	if _, err := Read(img, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("blank image: got %v, want ErrNotFound", err)
	}
	if _, err := Read(image.NewGray(image.Rect(0, 0, 0, 0)), false); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty image: got %v, want ErrNotFound", err)
	}
}

func TestWriteRejectsBadInput(t *testing.T) {
	if _, err := Write(nil, 3); err == nil {
		t.Error("empty payload accepted")
	}
	if _, err := Write(make([]byte, MaxPayload+1), 3); err == nil {
		t.Error("oversized payload accepted")
	}
	if _, err := Write([]byte("x"), 9); err == nil {
		t.Error("EC level 9 accepted")
	}
	if _, err := Write([]byte("x"), -1); err == nil {
		t.Error("EC level -1 accepted")
	}
}
