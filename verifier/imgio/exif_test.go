package imgio

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"slices"
	"testing"

	"github.com/idgate/idgate/verifier/face/tensor"
)

// exifTIFF is an EXIF TIFF structure whose IFD0 holds orientation o.
func exifTIFF(o uint16, bo binary.AppendByteOrder) []byte {
	tiff := []byte("II*\x00")
	if bo == binary.AppendByteOrder(binary.BigEndian) {
		tiff = []byte("MM\x00*")
	}
	tiff = bo.AppendUint32(tiff, 8)
	tiff = bo.AppendUint16(tiff, 1) // one entry
	tiff = bo.AppendUint16(tiff, 0x0112)
	tiff = bo.AppendUint16(tiff, 3)
	tiff = bo.AppendUint32(tiff, 1)
	tiff = bo.AppendUint16(tiff, o)
	tiff = append(tiff, 0, 0)
	return bo.AppendUint32(tiff, 0) // no next IFD
}

// withOrientation inserts an APP1 EXIF segment holding orientation o
// right after the JPEG's SOI marker.
func withOrientation(jpg []byte, o uint16, bo binary.AppendByteOrder) []byte {
	payload := append([]byte("Exif\x00\x00"), exifTIFF(o, bo)...)
	seg := []byte{0xFF, 0xE1}
	seg = binary.BigEndian.AppendUint16(seg, uint16(len(payload)+2))
	seg = append(seg, payload...)
	return append(append(append([]byte{}, jpg[:2]...), seg...), jpg[2:]...)
}

// halves is a 16×8 JPEG, left half white, right half black.
func halves(t testing.TB) []byte {
	img := image.NewGray(image.Rect(0, 0, 16, 8))
	for y := range 8 {
		for x := range 8 {
			img.SetGray(x, y, color.Gray{Y: 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func bright(t *tensor.Tensor, x, y int) bool {
	return t.Data[(y*t.Shape[2]+x)*3] > 128
}

func TestDecodeHonoursEXIFOrientation(t *testing.T) {
	base := halves(t)
	for _, c := range []struct {
		o        uint16
		h, w     int
		brightAt [2]int // a pixel that must be white
		darkAt   [2]int // and one that must be black
	}{
		{1, 8, 16, [2]int{1, 1}, [2]int{14, 1}},
		{2, 8, 16, [2]int{14, 1}, [2]int{1, 1}},
		{3, 8, 16, [2]int{14, 6}, [2]int{1, 6}},
		{6, 16, 8, [2]int{3, 1}, [2]int{3, 14}}, // white half rotates to the top
		{8, 16, 8, [2]int{3, 14}, [2]int{3, 1}}, // and to the bottom
		{5, 16, 8, [2]int{3, 1}, [2]int{3, 14}},
		{7, 16, 8, [2]int{3, 14}, [2]int{3, 1}},
	} {
		for _, bo := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
			img, err := Decode(withOrientation(base, c.o, bo), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if img.Shape[1] != c.h || img.Shape[2] != c.w {
				t.Fatalf("orientation %d: %dx%d, want %dx%d", c.o, img.Shape[2], img.Shape[1], c.w, c.h)
			}
			if !bright(img, c.brightAt[0], c.brightAt[1]) || bright(img, c.darkAt[0], c.darkAt[1]) {
				t.Errorf("orientation %d (%v): wrong pixels", c.o, bo)
			}
		}
	}
	if o := jpegOrientation(base); o != 1 {
		t.Errorf("no EXIF: orientation %d", o)
	}
}

// TestDecodeImageMatchesDecode: the image.Image path turns and colours
// every orientation as the tensor path does.
func TestDecodeImageMatchesDecode(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 24, 16))
	for y := range 16 {
		for x := range 24 {
			img.Set(x, y, color.RGBA{R: uint8(10 * x), G: uint8(15 * y), B: uint8(5 * (x + y)), A: 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	for o := uint16(1); o <= 8; o++ {
		data := withOrientation(buf.Bytes(), o, binary.BigEndian)
		want, err := Decode(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeImage(data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if g := ToTensor(got); !sameShape(g, want) || !slices.Equal(g.Data, want.Data) {
			t.Errorf("orientation %d: image %v differs from tensor %v", o, got.Bounds(), want.Shape)
		}
	}
}

// FuzzOrientation: the EXIF walkers of all three formats stay in bounds
// and in range on any input.
func FuzzOrientation(f *testing.F) {
	base := halves(f)
	f.Add(withOrientation(base, 6, binary.LittleEndian))
	f.Add(withOrientation(base, 3, binary.BigEndian))
	f.Add(pngWithEXIF(encodePNG(f, image.NewGray(image.Rect(0, 0, 4, 2))), exifTIFF(6, binary.BigEndian)))
	f.Add([]byte("RIFF\x20\x00\x00\x00WEBPEXIF\x0e\x00\x00\x00II*\x00\x08\x00\x00\x00\x01\x00\x12\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if o := orientation(data); o < 1 || o > 8 {
			t.Fatalf("orientation %d out of range", o)
		}
	})
}
