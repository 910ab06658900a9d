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
	"testing"
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
