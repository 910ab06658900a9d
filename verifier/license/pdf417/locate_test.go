package pdf417

import (
	"math"
	"testing"

	"github.com/idgate/idgate/verifier/license/pdf417/raster"
	"github.com/idgate/idgate/verifier/license/pdf417/synth"
)

// The located region's u axis follows the card's rotation to a fraction of
// a degree: the structure tensor alone is off by several degrees on 2 px
// modules, the projection search must remove that bias.
func TestLocateMeasuresRotation(t *testing.T) {
	for i, deg := range []float64{-19, -11, -4, 0, 7, 16} {
		c := synth.Set(uint64(60+i), 1)[0]
		c.Module = 2
		c.RotationDeg = deg
		img, err := c.Render()
		if err != nil {
			t.Fatal(err)
		}
		loc := locate(raster.Luminance(img))
		if len(loc.regions) == 0 {
			t.Fatalf("%v°: no region", deg)
		}
		r := loc.regions[0]
		if got := r.angle * 180 / math.Pi; math.Abs(got-deg) > 0.5 {
			t.Errorf("%v°: measured %.2f°", deg, got)
		}
		// The symbol is about 3:1; a region of text or the whole card
		// would be far squarer.
		if ratio := r.halfU / r.halfV; ratio < 2 || ratio > 5 {
			t.Errorf("%v°: region %0.f x %0.f is not barcode-shaped", deg, 2*r.halfU, 2*r.halfV)
		}
	}
}

func TestLocateBlankFindsNothing(t *testing.T) {
	g := raster.Luminance(symbolImage(t, "x"))
	for i := range g.Pix {
		g.Pix[i] = 200
	}
	if loc := locate(g); len(loc.regions) != 0 {
		t.Fatalf("blank image: %d regions", len(loc.regions))
	}
}
