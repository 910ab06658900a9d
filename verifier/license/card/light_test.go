package card_test

import (
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
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
