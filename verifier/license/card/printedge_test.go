package card_test

import (
	"testing"

	"github.com/idgate/idgate/verifier/license/card"
	"github.com/idgate/idgate/verifier/license/card/cardtest"
	"github.com/idgate/idgate/verifier/license/pdf417/raster"
)

// The accent-line card standing upright on white (bench/robust #113's
// design, surface, light and tilt) has its red band printed a few pixels
// inside its short side, an edge of the same polarity: the line search
// keeps the band's edge and not the card's, and the outline on the
// band's edge has the stock beyond it. The card's own edge is found past
// that print (acceptPastPrint); before, the card 700 px wide turned 82°
// was refused and turned 86° taken 3.6% of its width off, and the card
// 816 px wide turned 86° taken 12% off: the outline under its lower
// accent line, the margin between its band and its edge (8 px in the
// working copy) too narrow and blurred for the band's edge to be refused
// as print. The one 816 px wide turned 82° was taken 2.6% off, on its
// band's edge, the margin too thin to refuse it (widenPastPrint).
func TestAnalyzeFrontEdgePastPrint(t *testing.T) {
	for _, tc := range []struct{ w, rot float64 }{{700, 82}, {700, 86}, {816, 82}, {816, 86}} {
		s := cardtest.Scene{FrameW: 1280, CardW: tc.w, RotationDeg: tc.rot, Vertical: true, Surface: cardtest.White, Design: cardtest.DesignNamed("accent lines"),
			Aspect: card.ID1Aspect, Blur: 0.67, Seed: 113, Light: cardtest.Light{Gradient: 0.145, Angle: 327.9, Tint: 0.005},
			Perspective: [4]raster.Point{{X: 0.0014, Y: 0.0169}, {X: -0.0378, Y: 0.0216}, {X: 0.0354, Y: -0.0217}, {X: -0.0272, Y: 0.0043}}}
		img, want := s.Render()
		c, err := card.AnalyzeFront(img)
		if err != nil || !c.AspectOK {
			t.Errorf("accent lines upright on white, %.0f px turned %.0f°: %v (aspect %.3f)", tc.w, tc.rot, err, c.Aspect)
			continue
		}
		assertCornersWithin(t, "accent lines upright on white", c.Corners, want, s.CardW, 0.015)
	}
}
