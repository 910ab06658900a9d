package web_test

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	xdraw "golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/flow/flowtest"
)

// media are the flow's real test inputs (flowtest): Foreman's frames and
// face, license fronts with a face printed on them, PDF417 backs.
func media(t *testing.T) flowtest.Data {
	t.Helper()
	testkit.Data(t, "testdata", "liveness", "foreman") // skips (fails under CI) when absent
	return flowtest.Data{Repo: testkit.RepoRoot(t)}
}

// check fails the test on err.
func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// foreman is Foreman frame n (352×288).
func foreman(t *testing.T, n int) image.Image {
	t.Helper()
	data, err := media(t).ForemanFrame(n)
	check(t, err)
	return decode(t, data)
}

func decode(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(data))
	check(t, err)
	return img
}

// livenessFrames is the fake camera's loop for a challenge asked in the
// order blink, turn_left, turn_right. Chromium starts the file when the
// page opens the camera; the page captures from about 1.3 s on. So:
// Foreman facing the camera and talking (frames 36–64, back and forth,
// 4.7 s), then the blink (66–68), his left turn (69–82) and his right turn
// (83–94), then back through them to frame 36, so the loop has no jump.
// The capture may start up to about 3 s late and still see every gesture
// after it began. Every second frame at 15 fps is the scene in real time.
func livenessFrames(t *testing.T) []image.Image {
	t.Helper()
	var nums []int
	span := func(from, to int) {
		step := 2
		if to < from {
			step = -2
		}
		for n := from; n != to; n += step {
			nums = append(nums, n)
		}
	}
	for range 2 {
		span(36, 64)
		span(64, 36)
	}
	span(36, 96)
	span(96, 36)
	cache := map[int]image.Image{}
	out := make([]image.Image, len(nums))
	for i, n := range nums {
		if cache[n] == nil {
			cache[n] = foreman(t, n)
		}
		out[i] = cache[n]
	}
	return out
}

// writeY4M writes frames as a YUV4MPEG2 file (4:2:0), the format of
// Chromium's --use-file-for-fake-video-capture. Chromium reads it as
// BT.601 studio range, so the full-range values are scaled into 16–235
// (chroma 16–240); left full range, whites clip and the card shows glare.
func writeY4M(t *testing.T, file string, fps int, frames []image.Image) {
	t.Helper()
	b := frames[0].Bounds()
	w, h := b.Dx()&^1, b.Dy()&^1
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	out := bufio.NewWriter(f)
	fmt.Fprintf(out, "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n", w, h, fps)
	y := make([]byte, w*h)
	u := make([]byte, w*h/4)
	v := make([]byte, w*h/4)
	for _, img := range frames {
		rgba := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
		for py := 0; py < h; py++ {
			for px := 0; px < w; px++ {
				c := rgba.RGBAAt(px, py)
				yy, _, _ := color.RGBToYCbCr(c.R, c.G, c.B)
				y[py*w+px] = studio(yy, 16, 219)
			}
		}
		for py := 0; py < h/2; py++ {
			for px := 0; px < w/2; px++ {
				var sr, sg, sb int
				for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					c := rgba.RGBAAt(2*px+d[0], 2*py+d[1])
					sr, sg, sb = sr+int(c.R), sg+int(c.G), sb+int(c.B)
				}
				_, cb, cr := color.RGBToYCbCr(uint8(sr/4), uint8(sg/4), uint8(sb/4))
				u[py*w/2+px], v[py*w/2+px] = studio(cb, 16, 224), studio(cr, 16, 224)
			}
		}
		out.WriteString("FRAME\n")
		out.Write(y)
		out.Write(u)
		out.Write(v)
	}
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// studio maps a full-range 0–255 value into lo..lo+span.
func studio(v uint8, lo, span int) uint8 {
	return uint8(lo + (int(v)*span+127)/255)
}

// foremanFace is Foreman's face, for a license that matches the selfie.
func foremanFace(t *testing.T) image.Image {
	t.Helper()
	face, err := media(t).ForemanFace()
	check(t, err)
	return face
}

// otherFace is another person, for a license that does not match.
func otherFace(t *testing.T) image.Image {
	t.Helper()
	f, err := os.Open(testkit.Data(t, "testdata", "faces", "labeled", "howard", "howard1.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	check(t, err)
	return img
}

// front is a JPEG photo of a license front printed with face, 1600×1200.
func front(t *testing.T, face image.Image) []byte {
	t.Helper()
	data, err := flowtest.FrontPhoto(face, 1600, 7)
	check(t, err)
	return data
}

// back is a JPEG photo of a license back with a valid PDF417.
func back(t *testing.T) []byte {
	t.Helper()
	data, _, err := flowtest.BackPhoto(5, 0, 0)
	check(t, err)
	return data
}

// huge scales img up 5× (nearest neighbour): from a 1600×1200 photo, a
// 48 MP one, past the server's 40 MP bound, which only the page's own
// downscaling gets accepted.
func huge(img image.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()*5, b.Dy()*5))
	xdraw.NearestNeighbor.Scale(out, out.Rect, img, b, xdraw.Src, nil)
	return out
}

// writeFile writes data to a temporary file (for the file input).
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func jpegBytes(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
