// Package reftest reads the reference outputs tools/reference produced
// (committed under verifier/face/testdata/reference; regenerate with
// tools/reference/regenerate.sh) for the parity tests.
package reftest

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

// Human is human.json: per image, Human's detector-only and mesh results.
type Human struct {
	Results map[string]struct {
		Width    int `json:"width"`
		Height   int `json:"height"`
		Detector []struct {
			Box       [4]float64   `json:"box"` // x, y, w, h clamped to the image
			Score     float64      `json:"score"`
			Keypoints [][2]float64 `json:"keypoints"`
		} `json:"detector"`
		Mesh []struct {
			Box       [4]float64   `json:"box"`
			Score     float64      `json:"score"`
			FaceScore float64      `json:"faceScore"`
			Mesh      [][3]float64 `json:"mesh"`
			Angle     []float64    `json:"angle"` // yaw, pitch, roll (radians)
			Real      float64      `json:"real"`
			Live      float64      `json:"live"`
		} `json:"mesh"`
		MeshNoIris []struct {
			Box       [4]float64   `json:"box"`
			FaceScore float64      `json:"faceScore"`
			Mesh      [][3]float64 `json:"mesh"`
		} `json:"meshNoIris"`
	} `json:"results"`
}

// Descriptors is descriptor.json: face-api's 128-D descriptor per image.
type Descriptors struct {
	Results map[string][]float64 `json:"results"`
}

// Load decodes testdata/reference/<name> into v.
func Load(t testing.TB, name string, v any) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "reference", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// IoU is the intersection over union of two x, y, width, height boxes.
func IoU(a, b [4]float64) float64 {
	ix := math.Max(0, math.Min(a[0]+a[2], b[0]+b[2])-math.Max(a[0], b[0]))
	iy := math.Max(0, math.Min(a[1]+a[3], b[1]+b[3])-math.Max(a[1], b[1]))
	inter := ix * iy
	return inter / (a[2]*a[3] + b[2]*b[3] - inter)
}

// Point68 is one point of face-api's 68-point landmarks, as its test
// suite's JSON files hold them (image pixels).
type Point68 struct{ X, Y float64 }

// FaceAPIShared decodes one of face-api.js's own expected outputs,
// testdata/faces/reference/<name>, into v.
func FaceAPIShared(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// EyeCentres are the centres of the two eyes in a 68-point set: the
// image-left eye (points 36–41) and the image-right eye (42–47).
func EyeCentres(p []Point68) (left, right Point68) {
	return Centre(p[36:42]), Centre(p[42:48])
}

// Centre is the mean of points.
func Centre(p []Point68) Point68 {
	var c Point68
	for _, q := range p {
		c.X += q.X / float64(len(p))
		c.Y += q.Y / float64(len(p))
	}
	return c
}

// HumanImages maps the image names in human.json to their place under
// testdata/faces.
var HumanImages = map[string]string{
	"bbt4.jpg": "groups/bbt4.jpg", "bbt2.jpg": "groups/bbt2.jpg", "neutral.jpg": "groups/neutral.jpg",
	"face1.png": "reference/face1.png", "raj1.png": "labeled/raj/raj1.png", "penny2.png": "labeled/penny/penny2.png",
}

// SortedKeys returns m's keys in order, so parity tests walk the reference
// (and report) deterministically.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FaceImage decodes testdata/faces/<rel> (slash-separated) the
// way the engine decodes uploads.
func FaceImage(t testing.TB, rel string) *tensor.Tensor {
	t.Helper()
	data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	img, err := imgio.Decode(data, imgio.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return img
}
