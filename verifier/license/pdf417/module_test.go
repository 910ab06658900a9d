package pdf417

import (
	"image"
	"testing"
	"time"

	"github.com/idgate/idgate/internal/testkit"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// straightCrops renders the phone-model photos of PhotoSet(2026, 4) that
// keep returns true for and returns, in the set's order, their names and
// the straightened crops their module is measured on.
func straightCrops(tb testing.TB, keep func(synth.Photo) bool) ([]string, []*image.Gray) {
	tb.Helper()
	var photos []synth.Photo
	for _, p := range synth.PhotoSet(2026, 4) {
		if keep(p) {
			photos = append(photos, p)
		}
	}
	return renderCrops(tb, photos)
}

// renderCrops renders photos and returns their names and straightened
// crops.
func renderCrops(tb testing.TB, photos []synth.Photo) ([]string, []*image.Gray) {
	tb.Helper()
	var names []string
	var crops []*image.Gray
	for _, p := range photos {
		img, _, err := p.Render()
		if err != nil {
			tb.Fatal(err)
		}
		s := newSession(raster.Luminance(img))
		if len(s.regions()) == 0 {
			tb.Fatalf("%s: no region", p.Name)
		}
		names, crops = append(names, p.Name), append(crops, s.straight())
	}
	return names, crops
}

// The coarse-to-fine search lands on the exhaustive search's module and
// edge spread bit for bit, on the 8 and 12 MP photos' crops (1-4k px
// wide), which it shrinks by 2 to 6.
//
// The photos are 8 and 12 MP renders, 2-3 s of CPU each, and the test
// took 22-32 s (2026-12-02), so a run walks one resolution's photo at
// each of the set's four distances, the 8 MP one at two of them and the
// 12 MP one at the other two, in turns (testkit.Share: two consecutive
// commits walk all eight; IDGATE_TEST_SWEEPS=full walks all eight in one
// run). Every crop is judged alone, and the share of them searched coarse
// to fine asked of the eight, 6 of 8 (7 are: the 8 MP photo of the
// farthest card has a crop 1065 px wide, searched exhaustively), is asked
// of each run's four: 3 of 4.
func TestCoarseModuleMatchesExhaustive(t *testing.T) {
	byName := map[string]synth.Photo{}
	for _, p := range synth.PhotoSet(2026, 4) {
		byName[p.Name] = p
	}
	var photos []synth.Photo
	// Paired by distance, the pairs' order alternating, so that each
	// round of two takes one photo of every distance, two of each
	// resolution.
	for _, name := range []string{"8MP/00", "12MP/00", "12MP/01", "8MP/01", "8MP/02", "12MP/02", "12MP/03", "8MP/03"} {
		p, ok := byName[name]
		if !ok {
			t.Fatalf("no %s in the set: the set changed", name)
		}
		photos = append(photos, p)
	}
	photos = testkit.Share(photos, 2)
	names, crops := renderCrops(t, photos)
	coarse := 0
	for i, c := range crops {
		d := coarseFactor(c.Rect.Dx())
		if d > 1 {
			coarse++
		}
		m0, e0, ok0 := moduleWidthAt(c, 1)
		m1, e1, ok1 := moduleWidth(c)
		if !ok0 || m1 != m0 || e1 != e0 || ok1 != ok0 {
			t.Errorf("%s (%d px wide, d=%d): coarse %v %v %v, exhaustive %v %v %v", names[i], c.Rect.Dx(), d, m1, e1, ok1, m0, e0, ok0)
		}
	}
	if 8*coarse < 6*len(crops) {
		t.Errorf("%d of %d crops searched coarse to fine, want at least 6 of every 8", coarse, len(crops))
	}
}

// BenchmarkModuleWidth measures the module on the straightened crop of a
// 12 MP photo (3852 px wide, 10.7 px modules), exhaustively and coarse to
// fine, side by side in each iteration, and prints both and their ratio.
func BenchmarkModuleWidth(b *testing.B) {
	_, crops := straightCrops(b, func(p synth.Photo) bool { return p.Name == "12MP/03" })
	if len(crops) != 1 {
		b.Fatal("no 12MP/03 in the set")
	}
	c := crops[0]
	d := coarseFactor(c.Rect.Dx())
	var exhaustive, coarse time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		moduleWidthAt(c, 1)
		t1 := time.Now()
		moduleWidthAt(c, d)
		exhaustive += t1.Sub(t0)
		coarse += time.Since(t1)
	}
	ms := func(t time.Duration) float64 { return t.Seconds() * 1000 / float64(b.N) }
	b.ReportMetric(ms(exhaustive), "exhaustive-ms/op")
	b.ReportMetric(ms(coarse), "coarse-ms/op")
	b.ReportMetric(float64(exhaustive)/float64(coarse), "x-faster")
}
