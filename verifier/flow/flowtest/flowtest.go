// Package flowtest makes the end-user flow's real inputs for tests and
// benchmarks: license fronts rendered by cardtest with a real face printed
// on the card, rendered PDF417 barcodes of synthetic AAMVA files, ID card
// backs printing a TD1 zone (mrztest), Foreman's
// frames as a liveness answer (and the form the page sends it in), and a
// challenge random source that draws the step order those frames show.
package flowtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"mime/multipart"
	"net/textproto"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/license"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
	"github.com/idgate/idgate/verifier/mrz"
	"github.com/idgate/idgate/verifier/mrz/mrztest"
	"github.com/idgate/idgate/verifier/mrz/ocrb"
)

// Data finds the shared test data under the module at repo.
type Data struct{ Repo string }

// DataFor is the data of this clone for a test, which is skipped (or
// fails under CI) when Foreman's frames are not installed.
func DataFor(t testing.TB) Data {
	t.Helper()
	testkit.Data(t, "testdata", "liveness", "foreman")
	return Data{Repo: testkit.RepoRoot(t)}
}

func (d Data) read(elem ...string) ([]byte, error) {
	path, err := testkit.FindData(d.Repo, elem...)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// ForemanFrame is frame n of the Foreman sequence (352×288 JPEG).
func (d Data) ForemanFrame(n int) ([]byte, error) {
	return d.read("testdata", "liveness", "foreman", fmt.Sprintf("f%03d.jpg", n))
}

// ForemanFace is Foreman's head from a frontal frame, cropped to the
// proportions of the area the card prints a face in (cardtest.FaceArea,
// square) so the card prints it undistorted. Cropped to the whole
// portrait's 250:330 instead, it was printed 1.32 times too wide, and that
// stretched print sat at the likely/possible boundary against his own
// frames: frame 40 printed on FrontPhoto seed 7, against the 49 frames of
// 36–96 a selfie may be chosen from (|yaw| ≤ 20°), read median 0.500,
// 90th percentile 0.549, max 0.564, so a card finder a few pixels more
// exact tipped the browser walk to possible_match. Undistorted it reads
// median 0.387, 90th percentile 0.445, max 0.462 with the colour-and-edge
// card finder and 0.390/0.453/0.469 with the brightness finder before it
// (likely_match ends at 0.55, definite at 0.45).
func (d Data) ForemanFace() (image.Image, error) {
	data, err := d.ForemanFrame(40)
	if err != nil {
		return nil, err
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	h := img.Bounds().Dy()
	w := h * cardtest.FaceArea.Dx() / cardtest.FaceArea.Dy()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), img, image.Pt((img.Bounds().Dx()-w)/2, 0), draw.Src)
	return out, nil
}

// ForemanAnswer is Foreman frames from..to, every 2nd, re-timed as a
// 15 fps stream: from 36 to 96 they show a blink, a turn to his left,
// then to his right (the order OrderedRand draws).
func (d Data) ForemanAnswer(from, to int) ([]liveness.Frame, error) {
	var out []liveness.Frame
	for n := from; n <= to; n += 2 {
		data, err := d.ForemanFrame(n)
		if err != nil {
			return nil, err
		}
		out = append(out, liveness.Frame{Data: data, T: time.Duration(len(out)) * time.Second / 15})
	}
	return out, nil
}

// LivenessForm encodes a liveness answer as the end-user page sends it:
// a multipart form with each frame as a "frame" part, in order, and their
// capture times in ms as the JSON array "timestamps". It returns the
// form's content type and body.
func LivenessForm(frames []liveness.Frame) (string, []byte) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	times := make([]int64, 0, len(frames))
	for i, fr := range frames {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="frame"; filename="f%d.jpg"`, i))
		h.Set("Content-Type", "image/jpeg")
		w, _ := mw.CreatePart(h) // writes to a bytes.Buffer: no error
		_, _ = w.Write(fr.Data)
		times = append(times, fr.T.Milliseconds())
	}
	ts, _ := json.Marshal(times)
	_ = mw.WriteField("timestamps", string(ts))
	_ = mw.Close()
	return mw.FormDataContentType(), body.Bytes()
}

// FrontPhoto is a JPEG photo, frameW pixels wide (4:3), of a license front
// carrying face (nil: a drawn face-like oval), the card across 5/8 of the
// frame and slightly turned.
func FrontPhoto(face image.Image, frameW int, seed uint64) ([]byte, error) {
	return frontPhoto(face, frameW, seed, nil)
}

// PrintedFrontPhoto is FrontPhoto of a card that prints printed's fields
// (cardtest.FrontLines) where the bars are otherwise.
func PrintedFrontPhoto(face image.Image, frameW int, seed uint64, printed license.License) ([]byte, error) {
	return frontPhoto(face, frameW, seed, &cardtest.Front{Lines: cardtest.FrontLines(printed)})
}

// IDCardFrontPhoto is FrontPhoto of an ID card's front (ICAO 9303 TD1)
// printing the fields of its back's zone lines under their captions
// (mrztest.CardFields: changed by tamper, the dates as date prints them,
// each when set).
func IDCardFrontPhoto(face image.Image, frameW int, seed uint64, lines []string, tamper func(*mrz.MRZ), date func(license.Date) string) ([]byte, error) {
	return frontPhoto(face, frameW, seed, &cardtest.Front{Fields: mrztest.CardFields(nil, lines, tamper, date)})
}

func frontPhoto(face image.Image, frameW int, seed uint64, text *cardtest.Front) ([]byte, error) {
	img, _ := cardtest.Scene{FrameW: frameW, CardW: float64(frameW) * 5 / 8, Aspect: card.ID1Aspect, RotationDeg: 4,
		Keystone: 0.04, Face: face, Seed: seed, Front: text}.Render()
	return encode(img)
}

// NoCardPhoto is a photo of the table with no card on it.
func NoCardPhoto(seed uint64) ([]byte, error) {
	img, _ := cardtest.Scene{FrameW: 1600, CardW: 1000, Aspect: card.ID1Aspect, NoCard: true, Seed: seed}.Render()
	return encode(img)
}

// BackPhoto is a clean JPEG photo of a license back and the license its
// barcode holds. frameW 0 is the smallest frame that fits the card;
// module is the barcode's module width in pixels (0: the set's).
func BackPhoto(seed uint64, frameW, module int) ([]byte, license.License, error) {
	c := synth.Set(seed, 1)[0] // the clean kind
	c.FrameWidth = frameW
	if module > 0 {
		c.Module = module
	}
	img, err := c.Render()
	if err != nil {
		return nil, license.License{}, err
	}
	l, err := license.ParseAAMVA(c.Payload)
	if err != nil {
		return nil, license.License{}, err
	}
	data, err := encode(img)
	return data, l, err
}

// IDCardBackPhoto is a phone's 3 MP photo (JPEG) of the back of an ID
// card (ICAO 9303 TD1, rendered by mrztest) printing the zone lines (nil:
// a card without its zone), the card across 70% of the frame, turned 2°.
func IDCardBackPhoto(lines []string, seed uint64) ([]byte, error) {
	f, err := ocrb.Load(ocrb.DebianPath)
	if err != nil {
		return nil, err
	}
	cam := mrztest.Camera{Width: 2000, Height: 1500, PageFrac: 0.7, Angle: 2, Blur: 0.5, Light: 0.15, Noise: 2, Quality: 90}
	img, err := mrztest.PrintedShot(f, mrz.TD1, lines, nil, mrztest.Print{}, cam, rand.New(rand.NewPCG(seed, 35)))
	if err != nil {
		return nil, err
	}
	return encode(img)
}

func encode(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// OrderedRand is a challenge random source for tests: every challenge
// drawn from it has a fresh nonce and the steps blink, turn_left,
// turn_right (the order Foreman's frames show). liveness.NewChallenge
// reads 16 nonce bytes, then one byte per step drawn out of three. It is
// injected through flow.Flow.Rand, never a production switch.
type OrderedRand struct {
	mu sync.Mutex
	n  int
}

func (r *OrderedRand) Read(p []byte) (int, error) {
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
