package blazeface

import (
	"math"
	"os"
	"path/filepath"
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
	set := modelstest.WithCandidates(t)
	img := tensor.New(1, 120, 200, 3)
	for i := range img.Data {
		img.Data[i] = 128
	}
	for _, file := range []string{ModelFile, ShortRangeModelFile} {
		m, err := tfjs.Load(set.ReadFile, file)
		if err != nil {
			t.Fatal(err)
		}
		faces, err := New(m, Defaults).Detect(img)
		if err != nil {
			t.Fatal(err)
		}
		if len(faces) != 0 {
			t.Fatalf("%s found %d faces in a flat grey image: %+v", file, len(faces), faces[0])
		}
	}
}

// TestAnchorsScaleWithTheInput: the 128 model's anchors are the 256's
// halved, 896 of them, as the two models' heads (512 and 384 rows) read.
func TestAnchorsScaleWithTheInput(t *testing.T) {
	a256, a128 := anchors(256), anchors(128)
	if len(a256) != 896 || len(a128) != 896 {
		t.Fatalf("%d and %d anchors, want 896", len(a256), len(a128))
	}
	for i := range a256 {
		if a128[i][0]*2 != a256[i][0] || a128[i][1]*2 != a256[i][1] {
			t.Fatalf("anchor %d: %v at 128, %v at 256", i, a128[i], a256[i])
		}
	}
	if a128[0] != [2]float32{4, 4} || a128[512] != [2]float32{8, 8} || a128[895] != [2]float32{120, 120} {
		t.Fatalf("128 anchors 0, 512, 895: %v %v %v; want strides 8 then 16", a128[0], a128[512], a128[895])
	}
}

// TestShortRangeFindsTheSameFaces runs the 128×128 short-range detector
// beside the engine's 256 on liveness frames (Foreman, GRID speakers: a
// face 0.35–0.45 of the frame's width, a selfie's distance): one face on
// each, the raw boxes overlapping by IoU ≥ 0.8 and the keypoints within
// 0.07 of the box's side (0.85–0.95 and 0.039–0.052 measured): the same
// face, decoded alike, but not the same box (the page's bench found the
// 128's side 0.94–1.16 of the 256's). A face
// filling a tight portrait (raj1, 150×150) is out of either model's
// domain (the engine looks again with a margin): not compared.
func TestShortRangeFindsTheSameFaces(t *testing.T) {
	set := modelstest.WithCandidates(t)
	var d [2]*Detector
	for i, file := range []string{ModelFile, ShortRangeModelFile} {
		m, err := tfjs.Load(set.ReadFile, file)
		if err != nil {
			t.Fatal(err)
		}
		d[i] = New(m, Defaults)
	}
	for _, rel := range [][]string{
		{"liveness", "foreman", "f001.jpg"}, {"liveness", "foreman", "f060.jpg"},
		{"liveness", "real", "grid_sbwe5n", "f001.jpg"}, {"liveness", "real", "grid_pwij3p", "f020.jpg"},
	} {
		data, err := os.ReadFile(testkit.Data(t, append([]string{"testdata"}, rel...)...))
		if err != nil {
			t.Fatal(err)
		}
		img, err := imgio.Decode(data, imgio.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var f [2][]Face
		for i := range d {
			if f[i], err = d[i].Detect(img); err != nil {
				t.Fatal(err)
			}
		}
		if len(f[0]) != 1 || len(f[1]) != 1 {
			t.Errorf("%s: %d faces at 256, %d at 128", filepath.Join(rel...), len(f[0]), len(f[1]))
			continue
		}
		a, b := f[0][0], f[1][0]
		side := a.RawMax.X - a.RawMin.X
		iou := reftest.IoU([4]float64{a.RawMin.X, a.RawMin.Y, a.RawMax.X - a.RawMin.X, a.RawMax.Y - a.RawMin.Y},
			[4]float64{b.RawMin.X, b.RawMin.Y, b.RawMax.X - b.RawMin.X, b.RawMax.Y - b.RawMin.Y})
		worst := 0.0
		for k := range a.Keypoints {
			worst = math.Max(worst, math.Hypot(a.Keypoints[k].X-b.Keypoints[k].X, a.Keypoints[k].Y-b.Keypoints[k].Y)/side)
		}
		t.Logf("%s: side %.0f px, scores %.2f %.2f, raw box IoU %.3f, keypoints up to %.3f of the side apart", filepath.Join(rel...), side, a.Score, b.Score, iou, worst)
		if iou < 0.8 || worst > 0.07 {
			t.Errorf("%s: raw boxes IoU %.3f (want ≥ 0.8), keypoints %.3f of the side apart (want ≤ 0.07)", filepath.Join(rel...), iou, worst)
		}
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
