package http

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/textproto"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/engines"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The flow tests' real inputs: license fronts rendered by cardtest with a
// real face printed on the card, a rendered PDF417 of a synthetic AAMVA
// file, and Foreman's frames for the liveness challenge.

var (
	enginesOnce sync.Once
	sharedEng   *engines.Engines
	enginesErr  error
)

// testEngines are the real engines (models loaded once per test binary).
func testEngines(t *testing.T) *engines.Engines {
	t.Helper()
	modelstest.Set(t) // skip (or fail under CI) before doing anything
	enginesOnce.Do(func() { sharedEng, enginesErr = engines.Load(engines.Config{Workers: 2}) })
	if enginesErr != nil {
		t.Fatal(enginesErr)
	}
	return sharedEng
}

func jpegOf(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func foremanFrame(t testing.TB, n int) []byte {
	t.Helper()
	data, err := os.ReadFile(testkit.Data(t, "testdata", "liveness", "foreman", fmt.Sprintf("f%03d.jpg", n)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// foremanFace is Foreman's head from a frontal frame, cropped to the
// portrait's proportions so the card prints it undistorted.
func foremanFace(t testing.TB) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(foremanFrame(t, 40)))
	if err != nil {
		t.Fatal(err)
	}
	h := img.Bounds().Dy()
	w := h * cardtest.Portrait.Dx() / cardtest.Portrait.Dy()
	x0 := (img.Bounds().Dx() - w) / 2
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), img, image.Pt(x0, 0), draw.Src)
	return out
}

func labeledFace(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(testkit.Data(t, "testdata", "faces", "labeled", path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// frontPhoto is a photo of a license front carrying face, 1600 px wide
// with the card 1000 px across, slightly turned.
func frontPhoto(t testing.TB, face image.Image, seed uint64) []byte {
	t.Helper()
	img, _ := cardtest.Scene{FrameW: 1600, CardW: 1000, Aspect: card.ID1Aspect, RotationDeg: 4, Keystone: 0.04,
		Face: face, Seed: seed}.Render()
	return jpegOf(t, img)
}

// noCardPhoto is a photo of the table with no card on it.
func noCardPhoto(t testing.TB) []byte {
	t.Helper()
	img, _ := cardtest.Scene{FrameW: 1600, CardW: 1000, Aspect: card.ID1Aspect, NoCard: true, Seed: 2}.Render()
	return jpegOf(t, img)
}

// backPhoto is a clean photo of a license back and the license its
// barcode holds.
func backPhoto(t testing.TB, seed uint64) ([]byte, license.License) {
	t.Helper()
	c := synth.Set(seed, 1)[0] // the clean kind
	img, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	l, err := license.ParseAAMVA(c.Payload)
	if err != nil {
		t.Fatal(err)
	}
	return jpegOf(t, img), l
}

// foremanAnswer is Foreman frames 36–96, every 2nd, as a 15 fps stream:
// a blink, a turn to his left, then to his right (the order the test
// challenges are drawn in); 31 frames over 4 s.
func foremanAnswer(t testing.TB) ([][]byte, []float64) {
	t.Helper()
	var frames [][]byte
	var ms []float64
	for n := 36; n <= 96; n += 2 {
		frames = append(frames, foremanFrame(t, n))
		ms = append(ms, float64(len(ms))*1000/15)
	}
	return frames, ms
}

// multipartFrames encodes a liveness answer as the browser sends it.
func multipartFrames(t testing.TB, frames [][]byte, ms []float64) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i, f := range frames {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="frame"; filename="f%d.jpg"`, i))
		h.Set("Content-Type", "image/jpeg")
		p, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		p.Write(f)
	}
	parts := make([]string, len(ms))
	for i, v := range ms {
		parts[i] = fmt.Sprintf("%.1f", v)
	}
	if err := w.WriteField("timestamps", "["+strings.Join(parts, ",")+"]"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), b.Bytes()
}

// orderedRand is the tests' challenge random source: every challenge it
// draws has a fresh nonce and the steps blink, turn_left, turn_right (the
// order Foreman's frames show). liveness.NewChallenge reads 16 nonce bytes,
// then one byte per step drawn out of three.
type orderedRand struct {
	mu sync.Mutex
	n  int
}

func (r *orderedRand) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range p {
		k := r.n % 19
		if k < 16 {
			p[i] = byte(r.n*7 + r.n/19) // distinct nonces
		} else {
			p[i] = byte(k - 16) // 0 blink, 1 turn_left, 2 turn_right
		}
		r.n++
	}
	return len(p), nil
}
