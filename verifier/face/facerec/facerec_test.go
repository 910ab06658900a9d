package facerec

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/imgio"
)

func cosine(a []float32, b []float64) float64 {
	var dot, na, nb float64
	for i := range b {
		dot += float64(a[i]) * b[i]
		na += float64(a[i]) * float64(a[i])
		nb += b[i] * b[i]
	}
	return dot / math.Sqrt(na*nb)
}

func maxAbs(a []float32, b []float64) float64 {
	m := 0.0
	for i := range b {
		m = math.Max(m, math.Abs(float64(a[i])-b[i]))
	}
	return m
}

func embedder(t *testing.T) *Embedder {
	t.Helper()
	net, err := Load(modelstest.Set(t).ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	return net.NewEmbedder()
}

func decodeShared(t *testing.T, rel string) *tensor.Tensor {
	t.Helper()
	data, err := os.ReadFile(testkit.Data(t, "testdata", "faces", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	img, err := imgio.Decode(data, imgio.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func descriptorOf(t *testing.T, e *Embedder, rel string) []float32 {
	t.Helper()
	d, err := e.Descriptor(decodeShared(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return d[:]
}

// TestParityWithFaceAPI compares our descriptors with face-api's on
// tfjs-wasm (tools/reference) for every labeled face and the two face-api
// test faces: cosine similarity must be ≥ 0.999.
func TestParityWithFaceAPI(t *testing.T) {
	e := embedder(t)
	var ref reftest.Descriptors
	reftest.Load(t, "descriptor.json", &ref)
	names := make([]string, 0, len(ref.Results))
	for n := range ref.Results {
		names = append(names, n)
	}
	sort.Strings(names)
	worst, worstAbs := 1.0, 0.0
	for _, name := range names {
		rel := "reference/" + name
		if name[:4] != "face" {
			person := name[:len(name)-len("1.png")]
			rel = "labeled/" + person + "/" + name
		}
		got := descriptorOf(t, e, rel)
		c := cosine(got, ref.Results[name])
		worst, worstAbs = math.Min(worst, c), math.Max(worstAbs, maxAbs(got, ref.Results[name]))
		if c < 0.999 {
			t.Errorf("%s: cosine %.6f to the reference", name, c)
		}
	}
	t.Logf("%d faces: worst cosine %.8f, worst element difference %.2g", len(names), worst, worstAbs)
}

// TestFaceAPITestSuiteDescriptors checks the expected outputs face-api.js's
// own test-suite ships (computed by its authors on another backend).
func TestFaceAPITestSuiteDescriptors(t *testing.T) {
	e := embedder(t)
	for _, c := range []struct{ img, want string }{
		{"reference/face1.png", "reference/faceDescriptor1.json"},
		{"reference/face2.png", "reference/faceDescriptor2.json"},
	} {
		raw, err := os.ReadFile(testkit.Data(t, "testdata", "faces", filepath.FromSlash(c.want)))
		if err != nil {
			t.Fatal(err)
		}
		var want []float64
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got := descriptorOf(t, e, c.img)
		cs, ma := cosine(got, want), maxAbs(got, want)
		t.Logf("%s: cosine %.6f, max element difference %.5f", c.img, cs, ma)
		if cs < 0.999 {
			t.Errorf("%s: cosine %.6f to face-api.js's expected descriptor", c.img, cs)
		}
	}
}

func TestDescriptorSteadyStateAllocatesNothing(t *testing.T) {
	e := embedder(t)
	img := descriptorInput(t)
	if _, err := e.Descriptor(img); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(3, func() { _, _ = e.Descriptor(img) }); a != 0 {
		t.Fatalf("Descriptor allocates %v times per call", a)
	}
}

func TestDescriptorRejectsNonRGB(t *testing.T) {
	e := embedder(t)
	if _, err := e.Descriptor(tensor.New(1, 10, 10, 1)); err == nil {
		t.Fatal("accepted a one-channel image")
	}
	if _, err := e.Descriptor(tensor.New(10, 10, 3)); err == nil {
		t.Fatal("accepted a rank-3 tensor")
	}
}

// descriptorInput is a non-square crop so padding and resizing both run.
func descriptorInput(t *testing.T) *tensor.Tensor {
	img := tensor.New(1, 120, 90, 3)
	for i := range img.Data {
		img.Data[i] = float32(i * 7 % 256)
	}
	return img
}

func BenchmarkDescriptor(b *testing.B) {
	net, err := Load(modelstest.Set(b).ReadFile)
	if err != nil {
		b.Fatal(err)
	}
	e := net.NewEmbedder()
	img := tensor.New(1, 150, 150, 3)
	for i := range img.Data {
		img.Data[i] = float32(i * 7 % 256)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Descriptor(img); err != nil {
			b.Fatal(err)
		}
	}
}
