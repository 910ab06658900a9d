package http

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"mime/multipart"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/engines/enginestest"
	"github.com/idgate/idgate/verifier/flow"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The flow tests' real inputs come from flowtest: license fronts carrying
// a real face, rendered PDF417s, Foreman's frames.

// testEngines are the real engines (models loaded once per test binary),
// answering a photo or liveness answer posted again without the work
// (enginestest.Memo): every flow here runs on both store backends.
func testEngines(t *testing.T) flow.Engines { return enginestest.Memoized(t, 2) }

// must is v, failing the test on err (call as must(f())(t)).
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func testData(t testing.TB) flowtest.Data { return flowtest.DataFor(t) }

func foremanFace(t testing.TB) image.Image { return must(testData(t).ForemanFace())(t) }

func labeledFace(t testing.TB, path string) image.Image {
	return testkit.PNG(t, "testdata", "faces", "labeled", path)
}

// frontPhoto is a 1600 px photo of a license front carrying face.
func frontPhoto(t testing.TB, face image.Image, seed uint64) []byte {
	return must(flowtest.FrontPhoto(face, 1600, seed))(t)
}

func noCardPhoto(t testing.TB) []byte { return must(flowtest.NoCardPhoto(2))(t) }

// backPhoto is a clean photo of a license back and the license it holds.
func backPhoto(t testing.TB, seed uint64) ([]byte, license.License) {
	t.Helper()
	data, l, err := flowtest.BackPhoto(seed, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return data, l
}

// farBackPhoto is a 1 MP phone photo (synth's print and camera models) of
// a license back a quarter of the frame wide: modules of about 1 px.
func farBackPhoto(t testing.TB) []byte {
	t.Helper()
	img, _, err := synth.PhotoSet(1, 8)[0].Render()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// foremanAnswer is Foreman frames 36–96 as the browser sends them: the
// frames and their capture times in ms (31 frames over 4 s).
func foremanAnswer(t testing.TB) ([][]byte, []float64) {
	t.Helper()
	var frames [][]byte
	var ms []float64
	for _, f := range must(testData(t).ForemanAnswer(36, 96))(t) {
		frames = append(frames, f.Data)
		ms = append(ms, float64(f.T)/float64(time.Millisecond))
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
		p := must(w.CreatePart(h))(t)
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
