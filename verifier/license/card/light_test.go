package card_test

import (
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// Light falling off across the photo makes the table beyond one side of
// the card darker than beyond the other by more than the surround test's
// absolute bound; the card is found all the same (sameLitSurface). Without
// it the accent-lines and the dark card lit from 230° came out too small.
func TestAnalyzeFrontUnevenLight(t *testing.T) {
	for i, d := range cardtest.Designs {
		for j, angle := range []float64{120, 230} {
			sf := cardtest.LightWood
			s := cardtest.Scene{FrameW: 1280, CardW: 800, RotationDeg: float64(5 - 4*j), Surface: sf, Design: d, Aspect: card.ID1Aspect,
				Light: cardtest.Light{Gradient: 0.5, Angle: angle}, Seed: uint64(110 + 3*i + j)}
			img, want := s.Render()
			c, err := card.AnalyzeFront(img)
			if err != nil || !c.AspectOK {
				t.Errorf("%s on %s, light from %.0f°: %v (aspect %.3f)", d.Name, sf, angle, err, c.Aspect)
				continue
			}
			assertCornersWithin(t, sf.String(), c.Corners, want, s.CardW, 0.015)
		}
	}
}

// A side whose Hough line is half a degree off the card's edge runs a
// few pixels inside the card at one end, and the strip 3 px beyond it
// reads the card's blurred edge there: with the light falling off across
// the photo, a dark card on granite had its table 1.403× brighter beyond
// one side than beyond the other (maxLightRatio 1.4) and was refused.
// The outline's corners fitted to the edge (acceptRefined) pass.
func TestAnalyzeFrontSlantedSideUnevenLight(t *testing.T) {
	s := cardtest.Scene{FrameW: 1280, CardW: 720, RotationDeg: 0.5, Surface: cardtest.Granite, Design: cardtest.DesignNamed("dark card"), Aspect: card.ID1Aspect,
		Perspective: [4]raster.Point{{X: 0.02}, {Y: -0.01}, {}, {X: 0.01}}, Light: cardtest.Light{Gradient: 0.5, Angle: 90}, Seed: 143}
	img, want := s.Render()
	c, err := card.AnalyzeFront(img)
	if err != nil || !c.AspectOK {
		t.Fatalf("dark card on granite, turned 0.5°: %v (aspect %.3f)", err, c.Aspect)
	}
	assertCornersWithin(t, "dark card on granite", c.Corners, want, s.CardW, 0.015)
}
