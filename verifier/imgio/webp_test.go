package imgio

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/tensor"
)

// libwebp runs one of libwebp's own tools (Debian package webp) on in,
// returning the file it writes: cwebp encodes, dwebp decodes, so the
// decoder is tested on files a real encoder wrote and against the real
// decoder's pixels. Without the tools the test fails under CI=true and
// skips loudly elsewhere.
func libwebp(t *testing.T, tool string, in []byte, args ...string) []byte {
	t.Helper()
	bin := testkit.Tool(t, tool) // Debian package webp
	dir := t.TempDir()
	inFile, outFile := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.WriteFile(inFile, in, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(append([]string{"-quiet"}, args...), inFile, "-o", outFile)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v: %s", tool, args, err, msg)
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func cwebp(t *testing.T, in []byte, args ...string) []byte { return libwebp(t, "cwebp", in, args...) }

func shared(t *testing.T, path ...string) []byte {
	data, err := os.ReadFile(testkit.Data(t, append([]string{"testdata", "faces"}, path...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustDecode(t *testing.T, data []byte) *tensor.Tensor {
	t.Helper()
	img, err := Decode(data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestDecodeWebPLossless: a lossless WebP decodes to exactly the PNG's
// pixels.
func TestDecodeWebPLossless(t *testing.T) {
	src := shared(t, "labeled", "raj", "raj1.png")
	want := mustDecode(t, src)
	got := mustDecode(t, cwebp(t, src, "-lossless"))
	if !sameShape(got, want) {
		t.Fatalf("shape %v, want %v", got.Shape, want.Shape)
	}
	for i := range want.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("value %d: %v, want %v", i, got.Data[i], want.Data[i])
		}
	}
}

// TestDecodeWebPLossy: the common lossy (VP8) WebP, in colour, decodes
// to libwebp's own pixels (dwebp with plain chroma upsampling, the kind
// x/image/webp does) within one level. Read through image.YCbCr's
// full-range colour model instead, the same file was 9.7 levels off on
// average.
func TestDecodeWebPLossy(t *testing.T) {
	webp := cwebp(t, shared(t, "groups", "bbt4.jpg"), "-q", "80")
	got := mustDecode(t, webp)
	want := mustDecode(t, libwebp(t, "dwebp", webp, "-nofancy"))
	if !sameShape(got, want) {
		t.Fatalf("shape %v, want %v", got.Shape, want.Shape)
	}
	var worst float32
	for i := range want.Data {
		worst = max(worst, got.Data[i]-want.Data[i], want.Data[i]-got.Data[i])
	}
	if worst > 1 {
		t.Errorf("max |Δ| %v levels against dwebp", worst)
	}
	// The image.Image path applies the same studio-range conversion.
	img, err := DecodeImage(webp, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if again := ToTensor(img); !sameShape(again, got) || !slices.Equal(again.Data, got.Data) {
		t.Errorf("DecodeImage's pixels differ from Decode's")
	}
}

// TestDecodeHonoursPNGAndWebPOrientation: EXIF orientation in a PNG eXIf
// chunk and in a WebP EXIF chunk (with or without the "Exif\0\0" prefix
// some writers add) turns the picture as for JPEG.
func TestDecodeHonoursPNGAndWebPOrientation(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 16, 8))
	for y := range 8 {
		for x := range 16 {
			img.Set(x, y, color.NRGBA{R: uint8(16 * x), G: uint8(30 * y), B: 77, A: 255})
		}
	}
	src := encodePNG(t, img)
	lossless := cwebp(t, src, "-lossless", "-exact")
	upright := mustDecode(t, src)
	for _, o := range []uint16{3, 6, 8} {
		want := orient(upright, int(o))
		for name, data := range map[string][]byte{
			"png":             pngWithEXIF(src, exifTIFF(o, binary.BigEndian)),
			"webp":            webpWithEXIF(t, lossless, exifTIFF(o, binary.LittleEndian)),
			"webp Exif\\0\\0": webpWithEXIF(t, lossless, append([]byte("Exif\x00\x00"), exifTIFF(o, binary.BigEndian)...)),
		} {
			got := mustDecode(t, data)
			if !sameShape(got, want) || !slices.Equal(got.Data, want.Data) {
				t.Errorf("%s orientation %d: shape %v, want %v turned as %v", name, o, got.Shape, upright.Shape, want.Shape)
			}
		}
	}
	if o := orientation(lossless); o != 1 {
		t.Errorf("WebP without EXIF: orientation %d", o)
	}
	if o := orientation(src); o != 1 {
		t.Errorf("PNG without eXIf: orientation %d", o)
	}
}

// pngWithEXIF inserts an eXIf chunk after IHDR (8-byte signature + 25-byte
// IHDR chunk).
func pngWithEXIF(p, tiff []byte) []byte {
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(tiff)))
	chunk = append(append(chunk, "eXIf"...), tiff...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	return append(append(append([]byte{}, p[:33]...), chunk...), p[33:]...)
}

// webpWithEXIF turns a simple WebP into the extended format: a VP8X
// header announcing EXIF, the original image chunk, then the EXIF chunk
// (where the container spec places it, after the image data).
func webpWithEXIF(t *testing.T, simple, exif []byte) []byte {
	t.Helper()
	cfg, _, err := image.DecodeConfig(bytes.NewReader(simple))
	if err != nil {
		t.Fatal(err)
	}
	le24 := func(b []byte, v int) []byte { return append(b, byte(v), byte(v>>8), byte(v>>16)) }
	body := append([]byte("WEBPVP8X"), 10, 0, 0, 0, 0x08, 0, 0, 0) // EXIF flag
	body = le24(le24(body, cfg.Width-1), cfg.Height-1)
	body = append(body, simple[12:]...)
	body = binary.LittleEndian.AppendUint32(append(body, "EXIF"...), uint32(len(exif)))
	body = append(body, exif...)
	if len(exif)%2 == 1 {
		body = append(body, 0)
	}
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
}

func sameShape(a, b *tensor.Tensor) bool {
	return len(a.Shape) == 4 && len(b.Shape) == 4 && a.Shape[1] == b.Shape[1] && a.Shape[2] == b.Shape[2]
}
