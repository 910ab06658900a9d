package pdf417

import (
	"image"
	"testing"
	"time"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// straightCrops renders the phone-model photos of PhotoSet(2026, 4) that
// keep returns true for and returns, by name, the straightened crops their
// module is measured on.
func straightCrops(tb testing.TB, keep func(synth.Photo) bool) map[string]*image.Gray {
	tb.Helper()
	out := map[string]*image.Gray{}
	for _, p := range synth.PhotoSet(2026, 4) {
		if !keep(p) {
			continue
		}
		img, _, err := p.Render()
		if err != nil {
			tb.Fatal(err)
		}
		s := newSession(raster.Luminance(img))
		if len(s.regions()) == 0 {
			tb.Fatalf("%s: no region", p.Name)
		}
		out[p.Name] = s.straight()
	}
	return out
}

// The coarse-to-fine search lands on the exhaustive search's module and
// edge spread bit for bit, on the 8 and 12 MP photos' crops (1-4k px
// wide), which it shrinks by 2 to 6.
func TestCoarseModuleMatchesExhaustive(t *testing.T) {
	coarse := 0
	for name, c := range straightCrops(t, func(p synth.Photo) bool { return p.MP >= 8 }) {
		d := coarseFactor(c.Rect.Dx())
		if d > 1 {
			coarse++
		}
		m0, e0, ok0 := moduleWidthAt(c, 1)
		m1, e1, ok1 := moduleWidth(c)
		if !ok0 || m1 != m0 || e1 != e0 || ok1 != ok0 {
			t.Errorf("%s (%d px wide, d=%d): coarse %v %v %v, exhaustive %v %v %v", name, c.Rect.Dx(), d, m1, e1, ok1, m0, e0, ok0)
		}
	}
	if coarse < 6 {
		t.Errorf("%d crops searched coarse to fine, want at least 6 of the 8", coarse)
	}
}

// BenchmarkModuleWidth measures the module on the straightened crop of a
// 12 MP photo (3852 px wide, 10.7 px modules), exhaustively and coarse to
// fine, side by side in each iteration, and prints both and their ratio.
func BenchmarkModuleWidth(b *testing.B) {
	c := straightCrops(b, func(p synth.Photo) bool { return p.Name == "12MP/03" })["12MP/03"]
	if c == nil {
		b.Fatal("no 12MP/03 in the set")
	}
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
