package blazeface

import (
	"math"
	"os"
	"testing"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/face/internal/reftest"
	"github.com/idgate/idgate/verifier/face/models/modelstest"
	"github.com/idgate/idgate/verifier/face/tensor"
	"github.com/idgate/idgate/verifier/face/tfjs"
	"github.com/idgate/idgate/verifier/imgio"
)

// TestParityWithHuman checks every face Human's detector found against
// ours: same count, box IoU ≥ 0.95, score within Human's 0.01 rounding,
// keypoints within 2 px.
func TestParityWithHuman(t *testing.T) {
	set := modelstest.Set(t)
	m, err := tfjs.Load(set.ReadFile, ModelFile)
	if err != nil {
		t.Fatal(err)
	}
	d := New(m, Defaults)
	var ref reftest.Human
	reftest.Load(t, "human.json", &ref)
	names := reftest.SortedKeys(ref.Results)
	worstIoU, worstKP := 1.0, 0.0
	for _, name := range names {
		want := ref.Results[name]
		img := reftest.FaceImage(t, reftest.HumanImages[name])
		faces, err := d.Detect(img)
		if err != nil {
			t.Fatal(err)
		}
		if len(faces) != len(want.Detector) {
			t.Errorf("%s: %d faces, reference %d", name, len(faces), len(want.Detector))
			continue
		}
		for i, w := range want.Detector {
			best, bi := -1.0, 0
			for j, f := range faces {
				x, y, bw, bh := f.Clamp(want.Width, want.Height)
				if v := reftest.IoU(w.Box, [4]float64{float64(x), float64(y), float64(bw), float64(bh)}); v > best {
					best, bi = v, j
				}
			}
			f := faces[bi]
			worstIoU = math.Min(worstIoU, best)
			if best < 0.95 {
				t.Errorf("%s face %d: IoU %.4f with reference box %v", name, i, best, w.Box)
			}
			if math.Abs(float64(f.Score)-w.Score) > 0.0051 {
				t.Errorf("%s face %d: score %.4f, reference %.2f", name, i, f.Score, w.Score)
			}
			for k, p := range w.Keypoints {
				dist := math.Hypot(f.Keypoints[k].X-p[0], f.Keypoints[k].Y-p[1])
				worstKP = math.Max(worstKP, dist)
				if dist > 2 {
					t.Errorf("%s face %d keypoint %d: (%.1f, %.1f), reference (%.1f, %.1f)", name, i, k, f.Keypoints[k].X, f.Keypoints[k].Y, p[0], p[1])
				}
			}
		}
	}
	t.Logf("worst box IoU %.4f, worst keypoint distance %.3f px", worstIoU, worstKP)
}

func TestNoFaceInFlatImage(t *testing.T) {
	set := modelstest.Set(t)
	m, err := tfjs.Load(set.ReadFile, ModelFile)
	if err != nil {
		t.Fatal(err)
	}
	img := tensor.New(1, 120, 200, 3)
	for i := range img.Data {
		img.Data[i] = 128
	}
	faces, err := New(m, Defaults).Detect(img)
	if err != nil {
		t.Fatal(err)
	}
	if len(faces) != 0 {
		t.Fatalf("found %d faces in a flat grey image: %+v", len(faces), faces[0])
	}
}

func TestNMSKeepsBestAndDropsOverlaps(t *testing.T) {
	c := []candidate{
		{idx: 0, score: 0.5, box: [4]float32{0, 0, 10, 10}},
		{idx: 1, score: 0.9, box: [4]float32{1, 1, 11, 11}},   // overlaps 0 heavily
		{idx: 2, score: 0.7, box: [4]float32{50, 50, 60, 60}}, // separate
		{idx: 3, score: 0.6, box: [4]float32{80, 80, 90, 90}}, // separate, beyond maxOut
	}
	kept := nms(c, 2, 0.1)
	if len(kept) != 2 || kept[0].idx != 1 || kept[1].idx != 2 {
		t.Fatalf("kept %+v, want anchors 1 then 2", kept)
	}
}

func BenchmarkDetect(b *testing.B) {
	set := modelstest.Set(b)
	m, err := tfjs.Load(set.ReadFile, ModelFile)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(testkit.Data(b, "testdata", "liveness", "foreman", "f001.jpg"))
	if err != nil {
		b.Fatal(err)
	}
	img, err := imgio.Decode(data, imgio.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	d := New(m, Defaults)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Detect(img); err != nil {
			b.Fatal(err)
		}
	}
}
