package card

import (
	"testing"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// TestGapSupport: a side missing its edge along one stretch (a light
// card fading into a white table) shows the edge everywhere else; one
// missing it as often but here and there (print or grain crossing a
// line) does not, nor one whose stretch reaches towards an end.
func TestGapSupport(t *testing.T) {
	l := line{cos: 1}
	a, b := raster.Point{}, raster.Point{Y: 100}
	profileOf := func(miss func(m int) bool) edgeProfile {
		p := edgeProfile{hits: make([]int32, 101), counted: make([]int32, 101)}
		for m := range 100 {
			p.hits[m+1], p.counted[m+1] = p.hits[m], p.counted[m]+1
			if !miss(m) {
				p.hits[m+1]++
			}
		}
		return p
	}
	faded := profileOf(func(m int) bool { return m >= 40 && m < 54 })
	if s, g := faded.support(l, a, b, 0.1, 0.9), faded.gapSupport(l, a, b); s != 66.0/80 || g != 1 {
		t.Errorf("one stretch in the middle: support %.3f, gapSupport %.3f, want %.3f and 1", s, g, 66.0/80)
	}
	// The same stretch reaching towards an end is a line running on past
	// the card's corner; misses here and there are no one stretch.
	for name, p := range map[string]edgeProfile{
		"one stretch near an end": profileOf(func(m int) bool { return m >= 14 && m < 28 }),
		"here and there":          profileOf(func(m int) bool { return m >= 12 && m < 82 && m%5 == 0 }),
	} {
		if s, g := p.support(l, a, b, 0.1, 0.9), p.gapSupport(l, a, b); s != 66.0/80 || g >= gapClearSupport {
			t.Errorf("%s: support %.3f, gapSupport %.3f, want %.3f and below %.2f", name, s, g, 66.0/80, gapClearSupport)
		}
	}
}
