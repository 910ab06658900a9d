package web_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	xdraw "golang.org/x/image/draw"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/internal/testkit/y4m"
	"github.com/idgate/idgate/verifier/face/liveness"
	"github.com/idgate/idgate/verifier/flow/flowtest"
	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
)

// media are the flow's real test inputs (flowtest): Foreman's frames and
// face, license fronts with a face printed on them, PDF417 backs.
func media(t *testing.T) flowtest.Data {
	t.Helper()
	return flowtest.DataFor(t)
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

// foremanTalking is ten frames of Foreman facing the camera and talking
// (36–54, every second frame: 15 fps in real time), for a fake camera
// that only needs a face on it.
func foremanTalking(t *testing.T) []image.Image {
	t.Helper()
	var out []image.Image
	for n := 36; n <= 54; n += 2 {
		out = append(out, foreman(t, n))
	}
	return out
}

// foremanOwn is Foreman's own order of gestures, and foremanSegments
// each of them for the test camera (testdata/livecamera.js), cut from
// his clip at its real frame times (30 fps): his blink (50–69: eyes open
// for half a second, shut at 66–68, open again at 69 as his head starts
// to turn, 8°), his left turn (70–82: +33° at 75, back to 1°) and his
// right turn (83–94: −30° at 90, back to 4°). Each holds its last frame
// until the next plays, so the three are one stretch of the clip, paused
// where he waits for the next cue. "rest" is him facing the camera and
// talking (36–64 and back, within 3.3° of straight; played over and over
// while no cue is up). Yaws and eyes: verifier/face/liveness's Foreman
// tests.
var (
	foremanOwn      = []liveness.Step{liveness.Blink, liveness.TurnLeft, liveness.TurnRight}
	foremanSegments = map[string][]int{
		"rest":                     append(frameRange(36, 64), frameRange(63, 37)...),
		string(liveness.Blink):     frameRange(50, 69),
		string(liveness.TurnLeft):  frameRange(70, 82),
		string(liveness.TurnRight): frameRange(83, 94),
	}
)

// frameRange is the frame numbers from to to, both included, either way.
func frameRange(from, to int) []int {
	step := 1
	if to < from {
		step = -1
	}
	var out []int
	for n := from; n != to+step; n += step {
		out = append(out, n)
	}
	return out
}

// foremanSegment is Foreman's frames nums as a test camera segment, each
// shown 1/30 s after the one before (the clip's own rate).
func foremanSegment(t *testing.T, nums []int) segment {
	t.Helper()
	var s segment
	for i, n := range nums {
		data, err := media(t).ForemanFrame(n)
		check(t, err)
		s.URLs = append(s.URLs, "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(data))
		s.At = append(s.At, i*1000/30)
	}
	return s
}

// writeY4M writes frames as the fake camera's y4m file (package y4m).
func writeY4M(t *testing.T, file string, fps int, frames []image.Image) {
	t.Helper()
	check(t, y4m.Write(file, fps, frames))
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

// farFront is a license front printed with face, 1280×960, the card 40% of
// the frame wide: the server accepts it (13% of the photo, 512 px wide),
// the page's guide asks to move closer and never takes it by itself, so a
// test presses the shutter (autocapture.ts, limits.minCoverage).
func farFront(t *testing.T, face image.Image) image.Image {
	t.Helper()
	img, _ := cardtest.Scene{FrameW: 1280, CardW: 0.4 * 1280, Aspect: card.ID1Aspect, RotationDeg: 4, Keystone: 0.04, Face: face, Seed: 7}.Render()
	return img
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
